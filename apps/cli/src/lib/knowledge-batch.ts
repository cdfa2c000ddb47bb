import type { BatchReport } from '@brandwire/knowledge';
import type { KnowledgeBackend } from '@brandwire/knowledge-web';

/** A read-only batch run statement by statement through a backend (the gateway's query API, or the graph opened read-only here). */
export async function readOnlyBatch(backend: KnowledgeBackend, statements: readonly string[], continueOnError: boolean): Promise<BatchReport> {
  const { runBatch } = await import('@brandwire/knowledge');
  return runBatch(statements, continueOnError, (statement) => backend.cypher(statement));
}
