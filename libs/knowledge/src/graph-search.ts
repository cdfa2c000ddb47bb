/** Full-text search over inquiries and responses (Kuzu's FTS extension, BM25), merged by score. */
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

export async function searchText(conn: KuzuConnection, text: string, options: SearchOptions = {}): Promise<SearchHit[]> {
  const limit = Math.max(1, Math.floor(options.limit ?? 20));
  if (text.trim() === '') return [];
  const hits: SearchHit[] = [];
  const indexes = await ftsIndexesByTable(conn);
  for (const fts of FTS_INDEXES) {
    const index = indexes.get(fts.table);
    if (index === undefined) throw new Error(`The full-text index over ${fts.table}.${fts.column} is missing: run install again.`);
    for (const row of await rowsOf(conn, ftsQuery(fts.table, index, limit), { q: text })) {
      const ts = row['ts'];
      hits.push({
        kind: fts.table === 'Inquiry' ? 'inquiry' : 'response',
        id: String(row['id']),
        convId: String(row['convId']),
        turn: Number(row['turn']),
        role: String(row['role']),
        text: String(row['text']),
        ts: isDate(ts) ? ts.toISOString() : null,
        score: Number(row['score']),
      });
    }
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}
