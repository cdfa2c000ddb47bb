/**
 * Cypher for people and tools. Writes to the graph are refused by the database: a graph opened read-only refuses
 * them itself, and on a graph opened for writing a read-only query runs inside `BEGIN TRANSACTION READ ONLY` as
 * one prepared statement (so it cannot end that transaction and go on). Kuzu's read-only modes still let
 * statements write files (COPY ... TO, EXPORT DATABASE) and load extensions: those are refused here unless the
 * caller allows writes, so no read-only path (a loopback API a web page can reach, for one) writes to disk.
 */
import { callsFunction, keywordsOf, leadingKeyword, splitStatements, transactionStep } from './cypher-text';
import { KnowledgeGraphError } from './errors';
import { exactRows } from './exact-result';
import type { KuzuConnection } from './kuzu-native';
import { type Params, type RawResult, runStatement } from './kuzu-run';
import { lossyColumns, markInexact, toJsonRows } from './result-json';
import { MAX_RESULT_BYTES, MAX_RESULT_ROWS } from './result-limits';
import { runBatch } from './batch-report';
import type { BatchOptions, BatchReport, QueryResultJson, StatementReport } from './types';

export interface Access {
  /** the database itself was opened read-only */
  readOnlyDatabase: boolean;
  /** the caller allows writes */
  write: boolean;
}

async function endTransaction(conn: KuzuConnection): Promise<void> {
  // a failed statement already ended the transaction in Kuzu
  await rolledBackOpenTransaction(conn);
}

async function readOnly<T>(conn: KuzuConnection, access: Access, work: (single: boolean) => Promise<T>): Promise<T> {
  if (access.readOnlyDatabase || access.write) return work(false);
  await runStatement(conn, 'BEGIN TRANSACTION READ ONLY');
  try {
    return await work(true);
  } finally {
    await endTransaction(conn);
  }
}

async function toJson(conn: KuzuConnection, statement: string, params: Params | undefined, access: Access, raw: RawResult): Promise<QueryResultJson> {
  const { columns, types } = raw;
  const lossy = lossyColumns(columns, types, raw.rows);
  const rows = toJsonRows(columns, types, raw.rows);
  if (lossy.length === 0) return { columns, types, rows };
  const inexact = (): QueryResultJson => ({ columns, types, rows: markInexact(rows, lossy.map((c) => columns.indexOf(c))), inexact: lossy });
  if (access.write && !access.readOnlyDatabase) return inexact();
  // running a read a second time is harmless; Kuzu's JSON writer keeps every digit, but not every value
  // (infinities and NaN make its JSON unreadable or its rows vanish): then the rows read first are given, marked
  const exact = await readOnly(conn, access, () => exactRows(conn, statement, columns, types, params)).catch(() => undefined);
  return exact?.length === rows.length ? { columns, types, rows: exact } : inexact();
}

/** Statements that reach files or extensions beyond the graph. */
const BEYOND_THE_GRAPH = new Set(['COPY', 'EXPORT', 'IMPORT', 'INSTALL', 'LOAD', 'ATTACH']);
/** Statements about the graph's data: reads, and writes the database refuses itself when it is read-only. */
const DATA_STATEMENTS = new Set(['MATCH', 'OPTIONAL', 'RETURN', 'WITH', 'UNWIND', 'CALL', 'CREATE', 'MERGE', 'SET', 'DELETE', 'REMOVE', 'DROP', 'ALTER']);
/**
 * The rest of the words a Kuzu statement can start with (its parser lists them all when it meets another word,
 * 0.11.3), besides EXPLAIN and PROFILE: statements about the storage, the connection or extensions.
 */
const OTHER_STATEMENTS = new Set(['BEGIN', 'COMMIT', 'ROLLBACK', 'CHECKPOINT', 'USE', 'COMMENT', 'FORCE', 'UNINSTALL', 'UPDATE', 'DETACH']);

function notAQuery(keyword: string): KnowledgeGraphError {
  const what = keyword === 'CALL' ? 'CALL of a setting' : keyword || 'This statement';
  return new KnowledgeGraphError('READ_ONLY', `${what} is not a query: read-only, only MATCH, RETURN, WITH, UNWIND and CALL of a function run (--write, with the graph opened for writing, runs the rest).`);
}

/**
 * A statement whose first word starts no statement this path knows is, in the Kuzu this was written for, not
 * Cypher at all (`garbage`): Kuzu's parser says why, as it does for a malformed MATCH. It is asked with `prepare`,
 * which parses, binds and plans but never runs, inside the read-only transaction; whatever it does not refuse as
 * a syntax error (a statement of a later Kuzu, say) is refused here rather than run.
 */
async function refuseUnknown(conn: KuzuConnection, access: Access, statement: string, keyword: string): Promise<never> {
  const refusal = await readOnly(conn, access, async () => {
    const prepared = await conn.prepare(statement);
    return prepared.isSuccess() ? undefined : prepared.getErrorMessage();
  });
  if (refusal?.startsWith('Parser exception:') === true) throw new Error(refusal);
  throw notAQuery(keyword);
}

/**
 * On a read-only path only statements about the graph's data run. The others change the storage or the
 * connection for every later caller (CHECKPOINT, BEGIN TRANSACTION, `CALL timeout=1`), or reach beyond the graph.
 */
async function refuseOnReadOnlyPath(conn: KuzuConnection, access: Access, statement: string, keyword: string): Promise<void> {
  // a clause that reaches files may stand anywhere in a statement, not only first (`WITH 1 AS x LOAD FROM '…'`)
  const beyond = BEYOND_THE_GRAPH.has(keyword) ? keyword : [...keywordsOf(statement)].find((word) => BEYOND_THE_GRAPH.has(word));
  if (beyond !== undefined) {
    throw new KnowledgeGraphError('READ_ONLY', `${beyond} reaches files or extensions beyond the graph: it runs only as a write (--write, with the graph opened for writing).`);
  }
  if (keyword === 'CALL' ? !callsFunction(statement) : OTHER_STATEMENTS.has(keyword)) throw notAQuery(keyword);
  if (!DATA_STATEMENTS.has(keyword)) await refuseUnknown(conn, access, statement, keyword);
}

/** One statement as {columns, types, rows}. */
export async function queryJson(conn: KuzuConnection, text: string, params: Params | undefined, access: Access): Promise<QueryResultJson> {
  const statements = splitStatements(text);
  // a plain Error, as Kuzu's own refusals: the query API answers it BAD_QUERY (the gateway's /knowledge/cypher?q=)
  if (statements.length > 1) throw new Error(`One statement at a time here, got ${statements.length}: run them one by one, or as a batch with \`brandwire knowledge query\`.`);
  const statement = statements[0];
  if (statement === undefined) throw new Error('Empty query');
  if (!access.write || access.readOnlyDatabase) await refuseOnReadOnlyPath(conn, access, statement, leadingKeyword(statement));
  const raw = await readOnly(conn, access, (single) => runStatement(conn, statement, params, single, { maxRows: MAX_RESULT_ROWS, maxBytes: MAX_RESULT_BYTES }));
  return toJson(conn, statement, params, access, raw);
}

/** Whether a transaction the statements began is still open; if so it is rolled back. */
async function rolledBackOpenTransaction(conn: KuzuConnection): Promise<boolean> {
  try {
    await runStatement(conn, 'ROLLBACK');
    return true;
  } catch (error) {
    if (/No active transaction/i.test((error as Error).message)) return false;
    throw error;
  }
}


/** "#2 ran, rolled back (0 rows)": the statement ran, but what it wrote is gone; it must not read as ok. */
function rolledBackLine(statement: StatementReport): string {
  const rows = statement.result?.rows.length ?? 0;
  return `#${statement.index} ran, rolled back (${rows} row${rows === 1 ? '' : 's'})`;
}

/**
 * "a; b; c": each statement reported; stops at the first failure unless `continueOnError`. With `write`, a
 * transaction the batch begins (BEGIN TRANSACTION) is followed: a statement that fails inside it ends it (Kuzu
 * rolls it back itself after most failures, this rolls it back after the rest, a syntax error), and a batch that
 * ends inside it fails: either way what it wrote is rolled back, not kept, and the statements that ran in it are
 * reported as rolled back (`#2 ran, rolled back (0 rows)`, `rolledBack: true`), not as ok.
 */
export async function queryBatch(conn: KuzuConnection, text: string, options: BatchOptions, readOnlyDatabase: boolean): Promise<BatchReport> {
  const access: Access = { readOnlyDatabase, write: options.write === true };
  const statements = splitStatements(text);
  const run = (statement: string): Promise<QueryResultJson> => queryJson(conn, statement, undefined, access);
  if (!access.write || readOnlyDatabase) return runBatch(statements, options.continueOnError === true, run);

  /** the open transaction: the 1-based index of the statement that began it, and whether it may write */
  let begun: { index: number; readOnly: boolean } | undefined;
  let index = 0;
  /** statements [from, to] ran in a transaction whose writes were rolled back */
  const lost: Array<[number, number]> = [];
  const followed = async (statement: string): Promise<QueryResultJson> => {
    index += 1;
    const result = await run(statement);
    const step = transactionStep(statement);
    if (step === 'end') begun = undefined;
    else if (step !== undefined) begun = { index, readOnly: step === 'begin read-only' };
    return result;
  };
  // a statement that failed (or that took the batch's results over their limits) ends the transaction it ran in
  const endTransactionOfFailure = async (): Promise<void> => {
    if (begun === undefined) return;
    await rolledBackOpenTransaction(conn);
    if (!begun.readOnly) lost.push([begun.index, index - 1]);
    begun = undefined;
  };
  const report = await runBatch(statements, options.continueOnError === true, followed, endTransactionOfFailure);
  const endedInside = await rolledBackOpenTransaction(conn);
  // a read-only transaction left open loses nothing: what it read stands
  if (endedInside && begun?.readOnly === true) return report;
  if (endedInside && begun !== undefined) lost.push([begun.index, index]);
  if (lost.length === 0 && !endedInside) return report;
  const isLost = (s: StatementReport): boolean => s.ok && lost.some(([from, to]) => s.index >= from && s.index <= to);
  const reported = report.statements.map((s): StatementReport => (isLost(s) ? { ...s, rolledBack: true } : s));
  const lines = report.lines.map((line, i) => {
    const statement = reported[i];
    return statement !== undefined && isLost(statement) ? rolledBackLine(statement) : line;
  });
  if (!endedInside) return { ...report, statements: reported, lines };
  // `begun` is unknown only if a statement began the transaction in a way not followed here: still rolled back
  const which = begun === undefined ? 'a transaction it began' : `the transaction #${begun.index} began`;
  lines.push(`FAILED: the batch ended inside ${which} (BEGIN TRANSACTION without COMMIT): its writes were rolled back`);
  return { ok: false, statements: reported, lines };
}
