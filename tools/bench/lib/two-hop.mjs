/** The two-hop query of the knowledge benchmark: "inquiries similar to X and their responses". */

// Both odd-looking parts matter on Kuzu 0.11 (see libs/knowledge/README.md). "WHERE score > 0" is always true, but
// only with a filter does Kuzu pass the few full-text hits on to the MATCH; without it every inquiry is extended.
// "*1..1" is one hop like "-[:ANSWERED_BY]->", but Kuzu then reads the text of the responses it reached rather
// than joining with a scan of every response.
export const TWO_HOP = `CALL QUERY_FTS_INDEX('Inquiry', 'inquiry_text', $q, top := 10)
WITH node AS i, score WHERE score > 0
MATCH (i)-[:ANSWERED_BY*1..1]->(r:Response)
RETURN i.id AS inquiry, i.text AS asked, r.role AS role, r.text AS answered, score
ORDER BY score DESC LIMIT 20`;

/** The same question as a plain one-hop MATCH, measured beside it: the figure before. */
export const TWO_HOP_PLAIN = `CALL QUERY_FTS_INDEX('Inquiry', 'inquiry_text', $q, top := 10)
WITH node AS i, score WHERE score > 0
MATCH (i)-[:ANSWERED_BY]->(r:Response)
RETURN i.id AS inquiry, i.text AS asked, r.role AS role, r.text AS answered, score
ORDER BY score DESC LIMIT 20`;

/** The full-text call alone, to show what part of the time is Kuzu's BM25 search. */
export const FTS_ONLY = `CALL QUERY_FTS_INDEX('Inquiry', 'inquiry_text', $q, top := 10)
RETURN node.id AS inquiry, node.text AS asked, score ORDER BY score DESC`;
