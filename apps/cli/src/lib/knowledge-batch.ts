import { type BatchReport, runBatch } from '@brandwire/knowledge';
import type { KnowledgeBackend } from '@brandwire/knowledge-web';

/** A read-only batch run statement by statement through a backend (the gateway's query API, or the graph opened read-only here). */
export function readOnlyBatch(backend: KnowledgeBackend, statements: readonly string[], continueOnError: boolean): Promise<BatchReport> {
  return runBatch(statements, continueOnError, (statement) => backend.cypher(statement));
}
