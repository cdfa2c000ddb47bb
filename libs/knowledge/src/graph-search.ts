/**
 * Full-text search over inquiries and responses (Kuzu's FTS extension, BM25), merged by score. BM25 gives a word
 * found in more than half of the texts no weight and Kuzu then returns nothing for it (in a small graph even
 * "hello"); when the ranked search finds nothing, the texts holding every word of the query are the hits instead,
 * newest first, unranked (`match: 'words'`).
 */
import { missingIndexError } from './errors';
import { ftsIndexesByTable } from './fts-indexes';
import type { KuzuConnection } from './kuzu-native';
import { rowsOf } from './kuzu-run';
import { isDate } from './result-json';
import { FTS_INDEXES } from './schema';
import type { SearchHit } from './types';

export interface SearchOptions {
  /** most hits returned (default 20) */
  limit?: number;
}

function ftsQuery(table: string, index: string, top: number): string {
  const role = table === 'Inquiry' ? "'customer'" : 'node.role';
  return (
    `CALL QUERY_FTS_INDEX('${table}', '${index}', $q, top := ${top}) ` +
    `RETURN node.id AS id, node.convId AS convId, node.turn AS turn, ${role} AS role, node.text AS text, node.ts AS ts, score`
  );
}

/** Texts of the table that hold every word (whole words, any case), newest first. */
function wordsQuery(table: string, wordCount: number, limit: number): string {
  const role = table === 'Inquiry' ? "'customer'" : 'node.role';
  const every = Array.from({ length: wordCount }, (_, i) => `regexp_matches(lower(node.text), $w${i})`).join(' AND ');
  return (
    `MATCH (node:${table}) WHERE ${every} ` +
    `RETURN node.id AS id, node.convId AS convId, node.turn AS turn, ${role} AS role, node.text AS text, node.ts AS ts, 0.0 AS score ` +
    `ORDER BY node.ts DESC, node.id LIMIT ${limit}`
  );
}

/** A word as a pattern that finds it whole: not inside a longer word, in any script. */
function wholeWord(word: string): string {
  const escaped = word.replace(/[\\^$.*+?()[\]{}|-]/g, (c) => `\\${c}`);
  return `(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`;
}

function hitOf(table: string, row: Record<string, unknown>, match: SearchHit['match']): SearchHit {
  const ts = row['ts'];
  return {
    kind: table === 'Inquiry' ? 'inquiry' : 'response',
    id: String(row['id']),
    convId: String(row['convId']),
    turn: Number(row['turn']),
    role: String(row['role']),
    text: String(row['text']),
    ts: isDate(ts) ? ts.toISOString() : null,
    score: Number(row['score']),
    match,
  };
}

export async function searchText(conn: KuzuConnection, text: string, options: SearchOptions = {}): Promise<SearchHit[]> {
  const limit = Math.max(1, Math.floor(options.limit ?? 20));
  if (text.trim() === '') return [];
  const hits: SearchHit[] = [];
  const indexes = await ftsIndexesByTable(conn);
  for (const fts of FTS_INDEXES) {
    const index = indexes.get(fts.table);
    if (index === undefined) throw missingIndexError(fts.table, fts.column);
    for (const row of await rowsOf(conn, ftsQuery(fts.table, index, limit), { q: text })) hits.push(hitOf(fts.table, row, 'full-text'));
  }
  if (hits.length > 0) return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const params = Object.fromEntries(words.map((w, i) => [`w${i}`, wholeWord(w)]));
  for (const fts of FTS_INDEXES) {
    for (const row of await rowsOf(conn, wordsQuery(fts.table, words.length, limit), params)) hits.push(hitOf(fts.table, row, 'words'));
  }
  return hits.sort((a, b) => (b.ts ?? '').localeCompare(a.ts ?? '')).slice(0, limit);
}
