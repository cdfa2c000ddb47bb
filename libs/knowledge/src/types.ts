import type { ConversationLine } from '@brandwire/domain';

/**
 * One consultation as `GET /api/agent/conversation` returns it (`ok` and any other field is ignored).
 * `brand` is the channel key. `lines` only ever grow: a re-build loads the lines past those already loaded.
 */
export interface KnowledgeConversation {
  brand: string;
  convId: string;
  userKey: string;
  seq: number;
  sessionId: string;
  ended: boolean;
  lines: readonly ConversationLine[];
}

export interface OpenOptions {
  /** open read-only: any write fails in Kuzu itself; several read-only processes can share the graph */
  readOnly?: boolean;
  /** create the graph when there is none (default); false: GRAPH_MISSING instead, as when read-only */
  create?: boolean;
  /** who is opening, for the holder file that a refused process reads, e.g. "the gateway" */
  holder?: string;
  /** Kuzu's buffer pool in MiB (default 448; Kuzu's own default is 80% of the machine's memory). Rebuilding the full-text indexes needs it: 448 is enough for about a million messages, raise it for more */
  bufferPoolMb?: number;
  /** read-only: how long one query may run before Kuzu stops it (default 30 s) */
  queryTimeoutMs?: number;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A query's result for JSON output: Kuzu's type names, numbers and booleans as JSON, integers beyond 2^53 as strings. */
export interface QueryResultJson {
  columns: string[];
  /** Kuzu type names, e.g. INT64, STRING, TIMESTAMP, NODE, REL, STRING[] */
  types: string[];
  rows: JsonValue[][];
  /**
   * Columns that held integers beyond 2^53 that could not be read exactly (only in a graph opened for writing,
   * where the statement is not run a second time to read them exactly); their values are the nearest doubles, as strings.
   */
  inexact?: string[];
}

export interface StatementReport {
  /** 1-based position in the batch */
  index: number;
  statement: string;
  ok: boolean;
  result?: QueryResultJson;
  error?: string;
  /** it ran, inside a transaction whose writes were rolled back afterwards (the batch ended in it, or a later statement failed) */
  rolledBack?: true;
}

export interface BatchReport {
  ok: boolean;
  statements: StatementReport[];
  /** one line per statement: "#1 ok (3 rows)", "#2 FAILED: ...", "#3 skipped" */
  lines: string[];
}

export interface BatchOptions {
  /** allow writes and DDL (default false: the batch runs on a read-only database) */
  write?: boolean;
  continueOnError?: boolean;
}

export type BuildPhase = 'reading' | 'loading' | 'indexing' | 'done';

export interface BuildProgress {
  phase: BuildPhase;
  conversations: number;
  messages: number;
  /** nodes added so far, per table */
  added: Record<string, number>;
}

export interface BuildOptions {
  /** host of the attachment CDN: only `[type] https://<host>/...` lines become Attachment nodes */
  attachmentHost: string;
  onProgress?: (progress: BuildProgress) => void;
  /** how many new messages are written to CSV before each bulk COPY (default 1,000,000: fewer, larger copies are faster; about 250 MB of temp files) */
  batchMessages?: number;
}

export interface BuildReport {
  conversations: number;
  messages: number;
  /** conversations new to the graph, and ones already there that got new turns */
  newConversations: number;
  grownConversations: number;
  /** nodes added per table and relations added per relation table */
  addedNodes: Record<string, number>;
  addedRelations: Record<string, number>;
  /** responses loaded by an earlier build whose message has since been deleted, taken out with their attachments */
  removedResponses: number;
  /** conversations not loaded, with why */
  skipped: { convId: string; reason: string }[];
  ms: number;
}

export interface SearchHit {
  kind: 'inquiry' | 'response';
  id: string;
  convId: string;
  turn: number;
  role: string;
  text: string;
  /** ISO 8601 (UTC) */
  ts: string | null;
  /** BM25 score of a full-text hit; 0 for a hit by words */
  score: number;
  /** ranked by the full-text index, or (when that found nothing) a text holding every word of the query */
  match: 'full-text' | 'words';
}

export interface GraphStatus {
  path: string;
  readOnly: boolean;
  installed: boolean;
  kuzuVersion: string;
  nodes: Record<string, number>;
  relations: Record<string, number>;
  ftsIndexes: string[];
}

export interface GraphViewNode {
  id: string;
  label: string;
  caption: string;
  properties: Record<string, JsonValue>;
}

export interface GraphViewEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

export interface GraphView {
  nodes: GraphViewNode[];
  edges: GraphViewEdge[];
}
