/**
 * A slice of the graph for a viewer: the most recent conversations with their channel, customer, turns,
 * attachments and the relations between them, at most `limit` nodes. Node ids are `<Label>:<primary key>`.
 * Every query is fully ordered, so the same graph always gives the same slice in the same order.
 */
import type { KuzuConnection, KuzuValue } from './kuzu-native';
import { rowsOf } from './kuzu-run';
import { toJsonValue } from './result-json';
import type { GraphView, GraphViewEdge, GraphViewNode, JsonValue } from './types';

const KEY: Record<string, string> = { Channel: 'key', Conversation: 'convId' };

type Row = Record<string, KuzuValue>;

/**
 * The rows ordered by these columns, each a string or a number. Kuzu 0.11.3 can give the rows of an ORDER BY on
 * several keys out of order (the README's quirks), so the slice's multi-key orders are made here; its rows are few.
 */
function sortedBy(rows: Row[], ...columns: string[]): Row[] {
  const compare = (a: KuzuValue, b: KuzuValue): number => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
  return [...rows].sort((x, y) => {
    for (const column of columns) {
      const order = compare(x[column] ?? null, y[column] ?? null);
      if (order !== 0) return order;
    }
    return 0;
  });
}
const NODES_PER_CONVERSATION = 12;

class ViewBuilder {
  readonly nodes = new Map<string, GraphViewNode>();
  readonly edges: GraphViewEdge[] = [];

  node(value: KuzuValue): string {
    const props = toJsonValue(value) as Record<string, JsonValue>;
    const label = String(props['_label']);
    const key = String(props[KEY[label] ?? 'id']);
    const id = `${label}:${key}`;
    if (!this.nodes.has(id)) {
      const { _id: _internal, _label: _l, ...properties } = props;
      const text = typeof properties['text'] === 'string' ? properties['text'] : key;
      this.nodes.set(id, { id, label, caption: text.length > 40 ? `${text.slice(0, 39)}…` : text, properties });
    }
    return id;
  }

  edge(label: string, source: string, target: string): void {
    this.edges.push({ id: `${label}:${source}->${target}`, source, target, label });
  }

  /** At most `limit` nodes, in the order they came (recent conversations first), and the edges between them. */
  result(limit: number): GraphView {
    const nodes = [...this.nodes.values()].slice(0, limit);
    const kept = new Set(nodes.map((n) => n.id));
    return { nodes, edges: this.edges.filter((e) => kept.has(e.source) && kept.has(e.target)) };
  }
}

export async function graphView(conn: KuzuConnection, limit = 300): Promise<GraphView> {
  const view = new ViewBuilder();
  const conversations = Math.max(1, Math.ceil(limit / NODES_PER_CONVERSATION));
  const heads = await rowsOf(
    conn,
    `MATCH (ch:Channel)-[:HAS_CUSTOMER]->(cu:Customer)-[:HAS_CONVERSATION]->(c:Conversation)
     RETURN ch, cu, c ORDER BY c.lastActivity DESC, c.convId LIMIT ${conversations}`,
  );
  const customerOf = new Map<string, string>();
  for (const row of heads) {
    const ch = view.node(row['ch'] ?? null);
    const cu = view.node(row['cu'] ?? null);
    const c = view.node(row['c'] ?? null);
    view.edge('HAS_CUSTOMER', ch, cu);
    view.edge('HAS_CONVERSATION', cu, c);
    customerOf.set(c, cu);
  }
  const ids = [...customerOf.keys()].map((id) => id.slice('Conversation:'.length));
  if (ids.length === 0) return view.result(limit);
  const turns = await rowsOf(conn, 'MATCH (c:Conversation)-[h:HAS_TURN]->(t) WHERE c.convId IN $ids RETURN c.convId AS conv, h.turn AS turn, t.id AS id, t', { ids });
  for (const row of sortedBy(turns, 'conv', 'turn', 'id')) {
    const conv = `Conversation:${String(row['conv'])}`;
    const t = view.node(row['t'] ?? null);
    view.edge('HAS_TURN', conv, t);
    const customer = customerOf.get(conv);
    if (t.startsWith('Inquiry:') && customer !== undefined) view.edge('ASKED', customer, t);
  }
  for (const row of sortedBy(await rowsOf(conn, 'MATCH (i:Inquiry)-[:ANSWERED_BY]->(r:Response) WHERE i.convId IN $ids RETURN i.id AS i, r.id AS r', { ids }), 'i', 'r')) {
    view.edge('ANSWERED_BY', `Inquiry:${String(row['i'])}`, `Response:${String(row['r'])}`);
  }
  for (const row of sortedBy(await rowsOf(conn, 'MATCH (t)-[:HAS_ATTACHMENT]->(a:Attachment) WHERE t.convId IN $ids RETURN label(t) AS l, t.id AS t, a.id AS aid, a', { ids }), 't', 'aid')) {
    view.edge('HAS_ATTACHMENT', `${String(row['l'])}:${String(row['t'])}`, view.node(row['a'] ?? null));
  }
  for (const row of sortedBy(await rowsOf(conn, 'MATCH (r:Response)-[:ENDED]->(c:Conversation) WHERE c.convId IN $ids RETURN r.id AS r, c.convId AS c', { ids }), 'r', 'c')) {
    view.edge('ENDED', `Response:${String(row['r'])}`, `Conversation:${String(row['c'])}`);
  }
  return view.result(limit);
}
