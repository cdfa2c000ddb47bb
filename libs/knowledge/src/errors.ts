/** The knowledge graph's own failures: a closed union the CLI and the gateway map to messages and exit codes. */
export const KNOWLEDGE_ERROR_CODES = [
  /** another process (or this one) holds the database; `holders` says who */
  'GRAPH_LOCKED',
  /** no database at the path (read-only open of a graph never built) */
  'GRAPH_MISSING',
  /** the schema is not there yet: run install first */
  'NOT_INSTALLED',
  /**
   * a build or another write stopped before it finished (its process was killed or crashed) and left what only
   * install can complete: a checkpoint a reader cannot replay, or a full-text index missing
   */
  'GRAPH_NEEDS_REPAIR',
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

/** What to do about GRAPH_NEEDS_REPAIR, in every message of it. */
const REPAIR = 'Run install (`brandwire knowledge install`, with the gateway stopped) to repair it; what the graph held is kept.';

/** The graph at `path` holds a checkpoint its last writer did not finish (Kuzu: "Couldn't replay shadow pages under read-only mode"). */
export function unfinishedWriteError(path: string): KnowledgeGraphError {
  return new KnowledgeGraphError(
    'GRAPH_NEEDS_REPAIR',
    `The knowledge graph at ${path} needs repair: a build or another write stopped before it finished (its process was killed or crashed), and a reader cannot complete it. ${REPAIR}`,
  );
}

/** A full-text index the graph should have is missing (a build drops them for a large load and makes them again at its end). */
export function missingIndexError(table: string, column: string): KnowledgeGraphError {
  return new KnowledgeGraphError(
    'GRAPH_NEEDS_REPAIR',
    `The knowledge graph needs repair: its full-text index over ${table}.${column} is missing (dropped, or a build or another write stopped before it finished). ${REPAIR}`,
  );
}

/** "the gateway (pid 123)" */
export function describeHolder(holder: GraphHolder): string {
  return `${holder.description} (pid ${holder.pid}${holder.readOnly ? ', read-only' : ''})`;
}
