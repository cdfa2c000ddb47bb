/** The knowledge graph's own failures: a closed union the CLI and the gateway map to messages and exit codes. */
export const KNOWLEDGE_ERROR_CODES = [
  /** another process (or this one) holds the database; `holders` says who */
  'GRAPH_LOCKED',
  /** no database at the path (read-only open of a graph never built) */
  'GRAPH_MISSING',
  /** the schema is not there yet: run install first */
  'NOT_INSTALLED',
  /** a write was asked of a graph opened read-only */
  'READ_ONLY',
  /** a `$parameter` the statement uses was not given (Kuzu would bind it to NULL silently) */
  'MISSING_PARAMETER',
  /** the native library could not be loaded */
  'NATIVE_UNAVAILABLE',
] as const;

export type KnowledgeErrorCode = (typeof KNOWLEDGE_ERROR_CODES)[number];

/** Who has a graph open, as recorded in its holder file. */
export interface GraphHolder {
  pid: number;
  /** e.g. "the gateway" */
  description: string;
  readOnly: boolean;
  /** ISO 8601 time of opening */
  since: string;
}

export class KnowledgeGraphError extends Error {
  override readonly name = 'KnowledgeGraphError';

  constructor(
    readonly code: KnowledgeErrorCode,
    message: string,
    readonly holders: readonly GraphHolder[] = [],
  ) {
    super(message);
  }
}

/** "the gateway (pid 123)" */
export function describeHolder(holder: GraphHolder): string {
  return `${holder.description} (pid ${holder.pid}${holder.readOnly ? ', read-only' : ''})`;
}
