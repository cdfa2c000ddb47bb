import { refuseBatchParameters } from './kuzu-run';
import { estimatedRowSize } from './result-json';
import { MAX_RESULT_BYTES, MAX_RESULT_ROWS, megabytes } from './result-limits';
import type { BatchReport, QueryResultJson, StatementReport } from './types';

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const SMALLER = 'add LIMIT, or run smaller batches.';

/**
 * What the statements of a batch answer together, held to the limits of one query's result: each statement is
 * read within them on its own, and the report holds them all. A statement is counted once it has been read, so
 * the batch reads at most one statement's limit beyond its own.
 */
class BatchTotal {
  private rows = 0;
  private bytes = 0;

  /** Counts a statement's result, or throws when it takes the batch over a limit (and counts nothing). */
  add(result: QueryResultJson): void {
    const rows = this.rows + result.rows.length;
    if (rows > MAX_RESULT_ROWS) {
      throw new Error(
        `It ran, but its result is not shown: it takes the batch to ${rows.toLocaleString('en-US')} rows, over the ${MAX_RESULT_ROWS.toLocaleString('en-US')} a batch may answer in all (its writes stay unless rolled back): ${SMALLER}`,
      );
    }
    let bytes = this.bytes;
    for (const row of result.rows) bytes += estimatedRowSize(row);
    if (bytes > MAX_RESULT_BYTES) {
      throw new Error(`It ran, but its result is not shown: it takes the batch over the ${megabytes(MAX_RESULT_BYTES)} a batch may answer in all as JSON (its writes stay unless rolled back): ${SMALLER}`);
    }
    this.rows = rows;
    this.bytes = bytes;
  }
}

/**
 * Runs statements one after the other and reports each ("#1 ok (3 rows)", "#2 FAILED: ...", "#3 skipped");
 * stops at the first failure unless `continueOnError`. `run` is whatever executes one statement: the graph
 * opened here, or the gateway's query API. A batch is given no parameters: one that uses a `$name` is refused
 * (MISSING_PARAMETER) before any statement runs. A statement that takes the batch's results over the limits of
 * one query fails. `onFailure` runs after each failure, before the next statement.
 */
export async function runBatch(
  statements: readonly string[],
  continueOnError: boolean,
  run: (statement: string) => Promise<QueryResultJson>,
  onFailure?: () => Promise<void>,
): Promise<BatchReport> {
  refuseBatchParameters(statements);
  const total = new BatchTotal();
  const reports: StatementReport[] = [];
  const lines: string[] = [];
  let failed = false;
  for (const [i, statement] of statements.entries()) {
    const index = i + 1;
    if (failed && !continueOnError) {
      reports.push({ index, statement, ok: false, error: 'skipped after an earlier failure' });
      lines.push(`#${index} skipped`);
      continue;
    }
    try {
      const result = await run(statement);
      total.add(result);
      reports.push({ index, statement, ok: true, result });
      lines.push(`#${index} ok (${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
    } catch (error) {
      failed = true;
      await onFailure?.();
      const message = (error as Error).message;
      reports.push({ index, statement, ok: false, error: message });
      lines.push(`#${index} FAILED: ${oneLine(message)}`);
    }
  }
  if (statements.length === 0) lines.push('no statement to run');
  return { ok: !failed && statements.length > 0, statements: reports, lines };
}
