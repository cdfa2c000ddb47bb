/**
 * Brings the full-text indexes to one working index per table, whatever an interrupted build or install left:
 * an index missing, listed but unqueryable, or made twice under numbered names.
 */
import { createFtsIndex, dropFtsIndexes, ftsIndexAnswers, type ListedFtsIndex, listFtsIndexes } from './fts-indexes';
import type { KuzuConnection } from './kuzu-native';
import { FTS_INDEXES } from './schema';

/** Repairs and creates what is missing; returns the names created. */
export async function ensureFtsIndexes(conn: KuzuConnection): Promise<string[]> {
  const listed = await listFtsIndexes(conn);
  const created: string[] = [];
  for (const fts of FTS_INDEXES) {
    let kept: string | undefined;
    const surplus: ListedFtsIndex[] = [];
    for (const index of listed.filter((i) => i.table === fts.table)) {
      if (kept === undefined && (await ftsIndexAnswers(conn, index))) kept = index.name;
      else surplus.push(index);
    }
    await dropFtsIndexes(conn, surplus);
    if (kept === undefined) created.push(await createFtsIndex(conn, fts));
  }
  return created;
}
