/** What the graph already holds, read once at the start of a build so a re-run adds only what is new. */
import type { LoadedConversation } from './conversation-rows';
import type { KuzuConnection } from './kuzu-native';
import { rowsOf } from './kuzu-run';

export interface GraphState {
  conversations: Map<string, LoadedConversation>;
  customers: Set<string>;
  channels: Set<string>;
}

export async function loadState(conn: KuzuConnection): Promise<GraphState> {
  const conversations = new Map<string, LoadedConversation>();
  for (const row of await rowsOf(conn, 'MATCH (c:Conversation) RETURN c.convId AS id, c.channel AS channel, c.lines AS lines, c.ended AS ended')) {
    conversations.set(String(row['id']), { channel: String(row['channel']), lines: Number(row['lines'] ?? 0), ended: row['ended'] === true });
  }
  const customers = new Set((await rowsOf(conn, 'MATCH (c:Customer) RETURN c.id AS id')).map((r) => String(r['id'])));
  const channels = new Set((await rowsOf(conn, 'MATCH (c:Channel) RETURN c.key AS key')).map((r) => String(r['key'])));
  return { conversations, customers, channels };
}
