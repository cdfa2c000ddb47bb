/** The REST JSON of the service, field for field (GET /api/docs-json): rooms, messages, conversations and signals. */

export interface RoomSummary {
  userKey: string;
  lastSeq: number;
  lastText: string;
  lastKind: string;
  lastTimestampUnixMs: number;
  count: number;
  ended: boolean;
}

export interface RoomsResponse {
  ok: true;
  brand: string;
  rooms: RoomSummary[];
}

export interface MessageItem {
  seq: number;
  userKey: string;
  sessionId: string;
  kind: string;
  text: string;
  timestampUnixMs: number;
  serial?: string;
  deleted?: boolean;
}

export interface MessagesResponse {
  ok: true;
  brand: string;
  userKey: string;
  messages: MessageItem[];
}

export interface ConversationSummary {
  convId: string;
  userKey: string;
  seq: number;
  sessionId: string;
  ended: boolean;
  lastActivity: string;
  last: string;
  count: number;
}

export interface BrandConversations {
  brand: string;
  conversations: ConversationSummary[];
}

export interface ConversationLine {
  role: 'customer' | 'agent' | 'bot' | 'system';
  text: string;
  at: string;
  /** `true` only on an agent line whose message was deleted */
  deleted?: true;
}

export interface ConversationResponse {
  ok: true;
  brand: string;
  convId: string;
  userKey: string;
  seq: number;
  sessionId: string;
  ended: boolean;
  lines: ConversationLine[];
}

/** A page of GET /api/agent/conversations/export: whole conversations in convId order. */
export interface ConversationExportPage {
  ok: true;
  brand: string;
  conversations: ConversationResponse[];
  /** pass as `after` for the next page; null on the last page */
  next: string | null;
}

export interface SignalEntry {
  id: string;
  signal: { kind: string; seq: number; brandKey: string; userKey: string; timestampUnixMs: number; serial?: string; serials?: string[]; phase?: 'accepted' };
}

export interface SignalsResponse {
  ok: true;
  brand: string;
  signals: SignalEntry[];
  next: string;
}
