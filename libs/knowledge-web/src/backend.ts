import type { GraphStatus, GraphView, QueryResultJson, SearchHit } from '@brandwire/knowledge';

/**
 * What the query API and the view page read from: the graph opened in this process, or the gateway's loopback
 * query API when the gateway holds the graph. Every call is read-only.
 */
export interface KnowledgeBackend {
  status(): Promise<GraphStatus>;
  /** one read-only Cypher statement */
  cypher(query: string): Promise<QueryResultJson>;
  /** full-text search over inquiries and responses, best first */
  search(text: string, limit?: number): Promise<SearchHit[]>;
  /** recent conversations and what hangs off them, at most `limit` nodes */
  graph(limit?: number): Promise<GraphView>;
  close(): Promise<void>;
}
