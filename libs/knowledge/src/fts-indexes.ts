/**
 * The full-text indexes over Inquiry.text and Response.text, found by table rather than by a fixed name.
 * CREATE_FTS_INDEX runs as several statements, each committed on its own: a process that fails or dies in between
 * leaves internal tables behind under that index name, which can then never be created again; creation falls back
 * to a numbered name.
 */
import type { KuzuConnection } from './kuzu-native';
import { rowsOf, runStatement } from './kuzu-run';
import type { FtsIndex } from './schema';

const MAX_NAME_ATTEMPTS = 20;
/** Kuzu's words for an index name held by the leftovers of an earlier index (internal tables, or the table's own index list) */
const NAME_TAKEN = /already exists|is not loaded yet/i;

export interface ListedFtsIndex {
  table: string;
  name: string;
}

/** Every FTS index the catalog lists, in its order. */
export async function listFtsIndexes(conn: KuzuConnection): Promise<ListedFtsIndex[]> {
  const rows = await rowsOf(conn, "CALL SHOW_INDEXES() WHERE index_type = 'FTS' RETURN table_name, index_name");
  return rows.map((r) => ({ table: String(r['table_name']), name: String(r['index_name']) }));
}

/** FTS index name per table (Inquiry, Response) as the database has them now. */
export async function ftsIndexesByTable(conn: KuzuConnection): Promise<Map<string, string>> {
  const byTable = new Map<string, string>();
  for (const { table, name } of await listFtsIndexes(conn)) if (!byTable.has(table)) byTable.set(table, name);
  return byTable;
}

/** The index to query for one of FTS_INDEXES, or undefined when it is missing. */
export async function ftsIndexOf(conn: KuzuConnection, fts: FtsIndex): Promise<string | undefined> {
  return (await ftsIndexesByTable(conn)).get(fts.table);
}

/** False for an index the catalog lists but that cannot be queried (its storage never came to be). */
export async function ftsIndexAnswers(conn: KuzuConnection, index: ListedFtsIndex): Promise<boolean> {
  try {
    await rowsOf(conn, `CALL QUERY_FTS_INDEX('${index.table}', '${index.name}', 'brandwire') RETURN count(*) AS n`);
    return true;
  } catch {
    return false;
  }
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
      await dropHalfCreated(conn, { table: fts.table, name });
      if (!NAME_TAKEN.test(lastError.message)) throw ftsFailure(fts, lastError);
    }
  }
  throw ftsFailure(fts, lastError ?? new Error('no name left'));
}

/** A failed creation can leave the index listed without its storage: it would then pass for present. */
async function dropHalfCreated(conn: KuzuConnection, index: ListedFtsIndex): Promise<void> {
  if (!(await listFtsIndexes(conn)).some((i) => i.table === index.table && i.name === index.name)) return;
  await dropFtsIndexes(conn, [index]).catch(() => undefined);
}

/**
 * Drops the indexes and checkpoints at once. Kuzu 0.11.3 replays a dropped index from its WAL into the catalog
 * only: after a crash the table still holds the index, unloaded and nameless to the catalog, so its name can
 * never be used again, creating any index fails until the database is reopened, and a single-row write to the
 * table crashes the process. Once checkpointed, the drop is in the data file and nothing is left to replay.
 */
export async function dropFtsIndexes(conn: KuzuConnection, indexes: readonly ListedFtsIndex[]): Promise<void> {
  if (indexes.length === 0) return;
  try {
    for (const { table, name } of indexes) await runStatement(conn, `CALL DROP_FTS_INDEX('${table}', '${name}')`);
  } finally {
    await runStatement(conn, 'CHECKPOINT');
  }
}

function ftsFailure(fts: FtsIndex, error: Error): Error {
  const hint = /buffer pool is full/i.test(error.message) ? ' Open the graph with a larger buffer pool (bufferPoolMb) and run install again.' : '';
  return new Error(`Creating the full-text index over ${fts.table}.${fts.column} failed: ${error.message}.${hint}`);
}
