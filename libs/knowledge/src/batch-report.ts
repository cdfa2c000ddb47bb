import type { BatchReport, QueryResultJson, StatementReport } from './types';

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Runs statements one after the other and reports each ("#1 ok (3 rows)", "#2 FAILED: ...", "#3 skipped");
 * stops at the first failure unless `continueOnError`. `run` is whatever executes one statement: the graph
 * opened here, or the gateway's query API.
 */
export async function runBatch(statements: readonly string[], continueOnError: boolean, run: (statement: string) => Promise<QueryResultJson>): Promise<BatchReport> {
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
      reports.push({ index, statement, ok: true, result });
      lines.push(`#${index} ok (${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
    } catch (error) {
      failed = true;
      const message = (error as Error).message;
      reports.push({ index, statement, ok: false, error: message });
      lines.push(`#${index} FAILED: ${oneLine(message)}`);
    }
  }
  if (statements.length === 0) lines.push('no statement to run');
  return { ok: !failed && statements.length > 0, statements: reports, lines };
}
