/** Runs one statement and reads its result, closing every result object (an unclosed one crashes Kuzu at exit). */
import { parameterNames } from './cypher-text';
import { KnowledgeGraphError } from './errors';
import { type KuzuConnection, type KuzuQueryResult, type KuzuValue, resultsOf } from './kuzu-native';
import { estimatedRowSize } from './result-json';
import { megabytes } from './result-limits';

export type Params = Record<string, KuzuValue>;

/** The most a result may hold; beyond either it is refused rather than read into memory. */
export interface ResultLimits {
  maxRows: number;
  /** as JSON, estimated while the rows are read (estimatedRowSize) */
  maxBytes: number;
}

const NO_LIMITS: ResultLimits = { maxRows: Infinity, maxBytes: Infinity };

export interface RawResult {
  columns: string[];
  types: string[];
  rows: Record<string, KuzuValue>[];
}

function missingParameters(names: readonly string[]): KnowledgeGraphError {
  return new KnowledgeGraphError('MISSING_PARAMETER', `Missing query parameter${names.length > 1 ? 's' : ''}: ${names.map((name) => `$${name}`).join(', ')}`);
}

/** Kuzu binds a `$name` it was not given to NULL without a word: refuse that instead. */
export function checkParameters(statement: string, params: Params | undefined): void {
  const missing = parameterNames(statement).filter((name) => params === undefined || !Object.hasOwn(params, name));
  if (missing.length > 0) throw missingParameters(missing);
}

/** A batch is given no parameters: every `$name` its statements use is missing. */
export function refuseBatchParameters(statements: readonly string[]): void {
  const used = [...new Set(statements.flatMap(parameterNames))];
  if (used.length > 0) throw missingParameters(used);
}

/**
 * `prepare` refuses a text of several statements, so `single` guarantees exactly one runs (used inside a
 * read-only transaction, which a second statement could otherwise end). Without parameters and without
 * `single` the plain query path is taken, since a few statements cannot be prepared (CREATE_FTS_INDEX).
 */
async function execute(conn: KuzuConnection, statement: string, params: Params | undefined, single: boolean): Promise<KuzuQueryResult[]> {
  try {
    if (!single && (params === undefined || Object.keys(params).length === 0)) return resultsOf(await conn.query(statement));
    const prepared = await conn.prepare(statement);
    if (!prepared.isSuccess()) throw new Error(prepared.getErrorMessage());
    return resultsOf(await conn.execute(prepared, params ?? {}));
  } catch (error) {
    if (/^Interrupted\.?$/.test((error as Error).message)) {
      throw new Error('The query ran longer than a query on a graph opened read-only may (30 s by default) and was stopped: add LIMIT or narrow it.');
    }
    throw error;
  }
}

/** How long one query may run on a graph opened read-only (the gateway's and the view's API, which anyone local can reach). */
export const READ_QUERY_TIMEOUT_MS = 30_000;


/** Rows read synchronously between two turns of the event loop. */
const ROWS_PER_TURN = 5_000;

/**
 * Every row of a finished result. Kuzu's own `getAll()` fetches each row with a round trip through the thread
 * pool (about 45 µs a row here: 4.5 s for the 100,000 conversations a re-build reads first), although the rows
 * are in memory already; reading them synchronously costs about 2 µs a row, and yielding between chunks keeps
 * a server's event loop free while a large result is read.
 */
async function readRows(result: KuzuQueryResult, { maxRows, maxBytes }: ResultLimits): Promise<Record<string, KuzuValue>[]> {
  const total = result.getNumTuples();
  if (total > maxRows) {
    throw new Error(`The result has ${total.toLocaleString('en-US')} rows, more than the ${maxRows.toLocaleString('en-US')} a query may answer: add LIMIT or narrow the query.`);
  }
  const rows: Record<string, KuzuValue>[] = [];
  let bytes = 0;
  while (result.hasNext()) {
    for (let n = 0; n < ROWS_PER_TURN && result.hasNext(); n++) {
      const row = result.getNextSync();
      if (row === null) continue;
      bytes += estimatedRowSize(Object.values(row));
      if (bytes > maxBytes) {
        throw new Error(`The result is larger than the ${megabytes(maxBytes)} a query may answer (as JSON): add LIMIT or return fewer or shorter columns.`);
      }
      rows.push(row);
    }
    if (result.hasNext()) await new Promise((resume) => setImmediate(resume));
  }
  return rows;
}

/** The last statement's result (a single statement has one). */
export async function runStatement(conn: KuzuConnection, statement: string, params?: Params, single = false, limits: ResultLimits = NO_LIMITS): Promise<RawResult> {
  checkParameters(statement, params);
  const results = await execute(conn, statement, params, single);
  try {
    const last = results[results.length - 1];
    if (last === undefined) return { columns: [], types: [], rows: [] };
    return { columns: last.getColumnNamesSync(), types: last.getColumnDataTypesSync(), rows: await readRows(last, limits) };
  } finally {
    for (const r of results) r.close();
  }
}

/** Runs statements whose results are not needed (DDL, COPY), closing each result. */
export async function runAll(conn: KuzuConnection, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await runStatement(conn, statement);
}

/** Rows as plain objects of one statement, for the library's own queries. */
export async function rowsOf(conn: KuzuConnection, statement: string, params?: Params): Promise<Record<string, KuzuValue>[]> {
  return (await runStatement(conn, statement, params)).rows;
}
