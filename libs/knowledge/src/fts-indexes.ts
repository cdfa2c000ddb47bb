/**
 * The full-text indexes over Inquiry.text and Response.text, found by table rather than by a fixed name:
 * Kuzu 0.11 leaves internal tables behind when CREATE_FTS_INDEX fails (for example when the buffer pool is too
 * small), after which that index name can never be created again; creation then falls back to a numbered name.
 */
import type { KuzuConnection } from './kuzu-native';
import { rowsOf, runStatement } from './kuzu-run';
import { FTS_INDEXES, type FtsIndex } from './schema';

const MAX_NAME_ATTEMPTS = 5;

/** FTS index name per table (Inquiry, Response) as the database has them now. */
export async function ftsIndexesByTable(conn: KuzuConnection): Promise<Map<string, string>> {
  const rows = await rowsOf(conn, "CALL SHOW_INDEXES() WHERE index_type = 'FTS' RETURN table_name, index_name");
  return new Map(rows.map((r) => [String(r['table_name']), String(r['index_name'])]));
}

/** The index to query for one of FTS_INDEXES, or undefined when it is missing. */
export async function ftsIndexOf(conn: KuzuConnection, fts: FtsIndex): Promise<string | undefined> {
  return (await ftsIndexesByTable(conn)).get(fts.table);
}

export async function createFtsIndex(conn: KuzuConnection, fts: FtsIndex): Promise<string> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
    const name = attempt === 0 ? fts.index : `${fts.index}_${attempt}`;
    try {
      await runStatement(conn, `CALL CREATE_FTS_INDEX('${fts.table}', '${name}', ['${fts.column}'])`);
      return name;
    } catch (error) {
      lastError = error as Error;
      if (!/already exists/i.test(lastError.message)) throw ftsFailure(fts, lastError);
    }
  }
  throw ftsFailure(fts, lastError ?? new Error('no name left'));
}

export async function dropFtsIndex(conn: KuzuConnection, table: string, name: string): Promise<void> {
  await runStatement(conn, `CALL DROP_FTS_INDEX('${table}', '${name}')`);
}

function ftsFailure(fts: FtsIndex, error: Error): Error {
  const hint = /buffer pool is full/i.test(error.message) ? ' Open the graph with a larger buffer pool (bufferPoolMb) and run install again.' : '';
  return new Error(`Creating the full-text index over ${fts.table}.${fts.column} failed: ${error.message}.${hint}`);
}

/** Creates the missing ones; returns the names created. */
export async function ensureFtsIndexes(conn: KuzuConnection): Promise<string[]> {
  const present = await ftsIndexesByTable(conn);
  const created: string[] = [];
  for (const fts of FTS_INDEXES) {
    if (!present.has(fts.table)) created.push(await createFtsIndex(conn, fts));
  }
  return created;
}
