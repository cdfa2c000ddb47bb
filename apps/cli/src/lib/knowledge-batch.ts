import type { BatchReport } from '@brandwire/knowledge';
import type { KnowledgeBackend } from '@brandwire/knowledge-web';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';
import { WRITE_HINT, isReadOnlyRefusal } from './knowledge-errors';

/** A read-only batch run statement by statement through a backend (the gateway's query API, or the graph opened read-only here). */
export async function readOnlyBatch(backend: KnowledgeBackend, statements: readonly string[], continueOnError: boolean): Promise<BatchReport> {
  const { runBatch } = await import('@brandwire/knowledge');
  return runBatch(statements, continueOnError, (statement) => backend.cypher(statement));
}

const COMMIT_HINT = 'end the batch with COMMIT to keep what it writes';

/**
 * The failure of a batch that was not ok (BAD_QUERY, exit 1): its message gives the line of each failed statement
 * ("#2 FAILED: …") and what failed the batch as a whole, after the statements' lines (a write batch that ended
 * inside its transaction: "the batch ended inside the transaction #1 began …: its writes were rolled back").
 */
export function batchFailure(report: BatchReport, write: boolean): CliError {
  const statementLines = report.lines.slice(0, report.statements.length).filter((line) => /^#\d+ FAILED: /.test(line));
  const batchLines = report.lines.slice(report.statements.length).map((line) => line.replace(/^FAILED: /, ''));
  const refusedWrite = report.statements.some((s) => s.error !== undefined && isReadOnlyRefusal(s.error));
  const hint = !write && refusedWrite ? WRITE_HINT : batchLines.length > 0 ? COMMIT_HINT : undefined;
  return new CliError('BAD_QUERY', [...statementLines, ...batchLines].join('; '), EXIT.error, { statements: report.statements, lines: report.lines }, hint);
}
