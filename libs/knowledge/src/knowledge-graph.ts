/**
 * The consultation knowledge graph (Kuzu, embedded). One process opens it for writing; several may open it
 * read-only. Calls on one instance run one at a time (Kuzu connections are not for concurrent statements),
 * and every query result is closed before the next call, so `close()` never leaves one open.
 */
import { KnowledgeGraphError } from './errors';
import { graphView } from './graph-view';
import { buildGraph } from './graph-build';
import { type OpenDatabase, openDatabase } from './graph-open';
import { queryBatch, queryJson } from './graph-query';
import { searchText, type SearchOptions } from './graph-search';
import { countAll, type InstallReport, installSchema, isInstalled } from './graph-status';
import type { KuzuConnection } from './kuzu-native';
import type { Params } from './kuzu-run';
import type { BatchOptions, BatchReport, BuildOptions, BuildReport, GraphStatus, GraphView, KnowledgeConversation, OpenOptions, QueryResultJson, SearchHit } from './types';

export interface QueryOptions {
  /** allow writes and DDL; on a graph opened read-only Kuzu refuses them anyway (default false) */
  write?: boolean;
}

export class KnowledgeGraph {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(private readonly handle: OpenDatabase) {}

  /**
   * Opens (creating when writable and missing) the graph at `path`, a Kuzu database file. A second writer, or a
   * reader while a writer holds it, gets a KnowledgeGraphError GRAPH_LOCKED naming the holder.
   */
  static async open(path: string, options: OpenOptions = {}): Promise<KnowledgeGraph> {
    return new KnowledgeGraph(await openDatabase(path, options));
  }

  get path(): string {
    return this.handle.path;
  }

  get readOnly(): boolean {
    return this.handle.readOnly;
  }

  /** Creates the schema and the full-text indexes where missing; safe to run again. */
  install(): Promise<InstallReport> {
    return this.exclusive((conn) => {
      this.requireWritable('install the schema');
      return installSchema(conn);
    });
  }

  isInstalled(): Promise<boolean> {
    return this.exclusive((conn) => isInstalled(conn));
  }

  /** Bulk-loads conversations (COPY FROM CSV); a re-run adds only what is new. */
  build(conversations: AsyncIterable<KnowledgeConversation> | Iterable<KnowledgeConversation>, options: BuildOptions): Promise<BuildReport> {
    return this.exclusive(async (conn) => {
      this.requireWritable('build');
      if (!(await isInstalled(conn))) throw new KnowledgeGraphError('NOT_INSTALLED', 'The knowledge graph schema is not installed yet: run install first.');
      return buildGraph(conn, conversations, options);
    });
  }

  /** One Cypher statement as {columns, types, rows}; read-only unless `write` (enforced by Kuzu, not by the text). */
  query(cypher: string, params?: Params, options: QueryOptions = {}): Promise<QueryResultJson> {
    return this.exclusive((conn) => queryJson(conn, cypher, params, { readOnlyDatabase: this.readOnly, write: options.write === true }));
  }

  /** "a; b; c", each statement reported ("#2 FAILED: ..."); read-only unless `write`. */
  queryBatch(text: string, options: BatchOptions = {}): Promise<BatchReport> {
    return this.exclusive((conn) => queryBatch(conn, text, options, this.readOnly));
  }

  /** Full-text search over inquiries and responses, best first. */
  search(text: string, options?: SearchOptions): Promise<SearchHit[]> {
    return this.exclusive((conn) => searchText(conn, text, options));
  }

  /** Node and relation counts per table. */
  status(): Promise<GraphStatus> {
    return this.exclusive(async (conn) => ({ path: this.path, readOnly: this.readOnly, ...(await countAll(conn)) }));
  }

  /** Recent conversations and what hangs off them, at most `limit` nodes, for a viewer. */
  graphJson(limit = 300): Promise<GraphView> {
    return this.exclusive((conn) => graphView(conn, limit));
  }

  /** Waits for the running call, then closes the connection and the database. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    await this.handle.close();
  }

  private requireWritable(what: string): void {
    if (this.readOnly) throw new KnowledgeGraphError('READ_ONLY', `Cannot ${what}: the knowledge graph was opened read-only.`);
  }

  private exclusive<T>(work: (conn: KuzuConnection) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The knowledge graph is closed.'));
    const run = this.queue.then(
      () => work(this.handle.conn),
      () => work(this.handle.conn),
    );
    this.queue = run;
    return run;
  }
}
