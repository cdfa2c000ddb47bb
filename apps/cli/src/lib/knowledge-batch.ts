import type { BatchReport, StatementReport } from '@brandwire/knowledge';
import type { KnowledgeBackend } from '@brandwire/knowledge-web';

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * A read-only batch run statement by statement through a backend (the gateway's query API, or the graph opened
 * read-only here), reported as KnowledgeGraph.queryBatch reports a batch: "#1 ok (3 rows)", "#2 FAILED: ...".
 */
export async function readOnlyBatch(backend: KnowledgeBackend, statements: readonly string[], continueOnError: boolean): Promise<BatchReport> {
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
      const result = await backend.cypher(statement);
      reports.push({ index, statement, ok: true, result });
      lines.push(`#${index} ok (${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
    } catch (error) {
      failed = true;
      const message = (error as Error).message;
      reports.push({ index, statement, ok: false, error: message });
      lines.push(`#${index} FAILED: ${oneLine(message)}`);
    }
  }
  return { ok: !failed && statements.length > 0, statements: reports, lines };
}
