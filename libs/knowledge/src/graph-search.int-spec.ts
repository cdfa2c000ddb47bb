import { CDN, conversation, line, parcelConversation, refundConversation } from './test-support/conversations';
import { tempGraphPath, type TempDir, withGraph } from './test-support/temp-graph';

/** The two-hop query as README.md recommends it: the filter and the one-hop variable-length pattern are what make Kuzu look up only the matched inquiries' responses. */
const TWO_HOP = `CALL QUERY_FTS_INDEX('Inquiry', 'inquiry_text', $q, top := 10)
WITH node AS i, score WHERE score > 0
MATCH (i)-[:ANSWERED_BY*1..1]->(r:Response)
RETURN i.id AS inquiry, r.text AS answer, score ORDER BY score DESC, answer`;

/** The same question written as a plain one-hop MATCH (correct, but Kuzu 0.11 scans every response for it). */
const TWO_HOP_PLAIN = `CALL QUERY_FTS_INDEX('Inquiry', 'inquiry_text', $q, top := 10)
WITH node AS i, score
MATCH (i)-[:ANSWERED_BY]->(r:Response)
RETURN i.id AS inquiry, r.text AS answer, score ORDER BY score DESC, answer`;

describe('search, two-hop queries and the viewer slice (real Kuzu)', () => {
  let temp: TempDir;
  beforeAll(async () => {
    temp = tempGraphPath();
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      await graph.build([parcelConversation(), refundConversation()], { attachmentHost: CDN });
      // a later build while the index is kept up to date by COPY (small compared with what is there)
      await graph.build([conversation('conv-9', [line('customer', 'Is the parcel lost? 택배 배송 문의', 30), line('agent', 'No, it is on its way', 31)], { userKey: 'user-9' })], { attachmentHost: CDN });
    });
  });
  afterAll(() => temp.remove());

  it('finds inquiries and responses by words, best first', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      const hits = await graph.search('parcel');
      expect(hits.map((h) => h.id).sort()).toEqual(['conv-1#1', 'conv-1#3', 'conv-9#1']);
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
      expect(hits.find((h) => h.id === 'conv-1#3')).toMatchObject({ kind: 'response', role: 'agent', convId: 'conv-1', turn: 3, ts: '2026-11-20T01:02:00.000Z' });
      expect((await graph.search('refund')).map((h) => h.id)).toEqual(expect.arrayContaining(['conv-2#1', 'conv-2#2']));
      expect((await graph.search('택배')).map((h) => h.id)).toEqual(['conv-9#1']);
      expect(await graph.search('  ')).toEqual([]);
      expect(await graph.search('zebra')).toEqual([]);
    });
  });

  it('answers "inquiries similar to X and their responses" in one two-hop query', async () => {
    const result = await withGraph(temp.path, { readOnly: true }, (graph) => graph.query(TWO_HOP, { q: 'parcel arrive' }));
    expect(result.columns).toEqual(['inquiry', 'answer', 'score']);
    expect(result.rows.map((r) => [r[0], r[1]])).toEqual([
      ['conv-1#1', 'Anything else?'],
      ['conv-1#1', 'Sorry about the parcel, we will resend it today'],
      ['conv-9#1', 'No, it is on its way'],
    ]);
  });

  it.each(['parcel arrive', 'refund card', '택배', 'anything', 'zebra'])('gives the same rows for %s in the recommended and the plain two-hop form', async (q) => {
    const [recommended, plain] = await withGraph(temp.path, { readOnly: true }, async (graph) => [await graph.query(TWO_HOP, { q }), await graph.query(TWO_HOP_PLAIN, { q })]);
    expect(recommended.rows).toEqual(plain.rows);
  });

  it('gives a viewer slice of nodes and edges with stable ids', async () => {
    const view = await withGraph(temp.path, { readOnly: true }, (graph) => graph.graphJson(100));
    const ids = view.nodes.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(['Channel:brand-a', 'Customer:brand-a/user-1', 'Conversation:conv-1', 'Inquiry:conv-1#1', 'Response:conv-1#4', 'Attachment:conv-1#2/1']));
    expect(view.nodes.find((n) => n.id === 'Inquiry:conv-1#1')).toMatchObject({ label: 'Inquiry', caption: 'My parcel did not arrive yet', properties: { turn: 1, convId: 'conv-1' } });
    expect(view.edges).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'ENDED', source: 'Response:conv-1#4', target: 'Conversation:conv-1' })]));
    expect(view.edges.every((e) => ids.includes(e.source) && ids.includes(e.target))).toBe(true);
    const small = await withGraph(temp.path, { readOnly: true }, (graph) => graph.graphJson(5));
    expect(small.nodes).toHaveLength(5);
  });
});

describe('search for a word most texts hold (real Kuzu)', () => {
  let temp: TempDir;
  beforeAll(async () => {
    temp = tempGraphPath();
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      await graph.build(
        [
          conversation('c-a', [line('customer', 'Hello from Alice', 0)], { userKey: 'alice' }),
          conversation('c-b', [line('customer', 'hello from bob, 안녕 택배', 5)], { userKey: 'bob' }),
          conversation('c-c', [line('customer', 'My card failed, othello', 9)], { userKey: 'carol' }),
        ],
        { attachmentHost: CDN },
      );
    });
  });
  afterAll(() => temp.remove());

  it('finds the texts holding every word, newest first, when the ranked search finds nothing', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      const hello = await graph.search('hello');
      expect(hello.map((h) => [h.id, h.match, h.score])).toEqual([
        ['c-b#1', 'words', 0],
        ['c-a#1', 'words', 0],
      ]);
      expect((await graph.search('HELLO from')).map((h) => h.id)).toEqual(['c-b#1', 'c-a#1']);
      expect((await graph.search('안녕')).map((h) => h.id)).toEqual(['c-b#1']);
      // ranked hits as before when there are any, and whole words only
      expect((await graph.search('alice')).map((h) => [h.id, h.match])).toEqual([['c-a#1', 'full-text']]);
      expect(await graph.search('hell')).toEqual([]);
      expect(await graph.search('a.b (c')).toEqual([]);
    });
  });
});
