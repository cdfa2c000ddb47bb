import type { BubbleKind, JournalKind } from '@brandwire/domain';
import type { Selectable } from 'kysely';
import type { Database } from './schema';

/** A bubble the customer received, recorded with the `agent` item that sent it (for delete). */
export interface NewBubble {
  serial: string;
  kind: BubbleKind;
  text: string | null;
  groupIndex: number;
}

export interface BubbleRecord {
  channelKey: string;
  serial: string;
  userKey: string;
  sessionId: string;
  kind: BubbleKind;
  text: string | null;
  sentAtMs: number;
  journalSeq: number;
  groupIndex: number;
  deletedAtMs: number | null;
}

export interface NewJournalItem {
  userKey: string;
  sessionId: string;
  kind: JournalKind;
  text: string;
  timestampUnixMs: number;
  serial?: string | null;
  byBot?: boolean;
  meta?: Record<string, unknown> | null;
  bubbles?: readonly NewBubble[];
}

export interface JournalItem {
  channelKey: string;
  seq: number;
  userKey: string;
  sessionId: string;
  kind: JournalKind;
  text: string;
  timestampUnixMs: number;
  serial: string | null;
  deleted: boolean;
  byBot: boolean;
  meta: Record<string, unknown> | null;
}

export type RoomState = 'in_progress' | 'ended' | 'expired';

export interface RoomRecord {
  channelKey: string;
  userKey: string;
  sessionId: string;
  state: RoomState;
  lastSeq: number;
  lastText: string;
  lastKind: JournalKind;
  lastTimestampUnixMs: number;
  count: number;
  endRequestedSession: string | null;
}

export interface ConversationRecord {
  channelKey: string;
  convId: string;
  userKey: string;
  sessionId: string;
  firstSeq: number;
  lastSeq: number;
  lastText: string;
  lastTimestampUnixMs: number;
  count: number;
  ended: boolean;
}

type JournalRow = Selectable<Database['journal']>;

export function toItem(row: JournalRow): JournalItem {
  return {
    channelKey: row.channel_key,
    seq: Number(row.seq),
    userKey: row.user_key,
    sessionId: row.session_id,
    kind: row.kind as JournalKind,
    text: row.text,
    timestampUnixMs: Number(row.ts_ms),
    serial: row.serial,
    deleted: row.deleted === 1,
    byBot: row.by_bot === 1,
    meta: row.meta === null ? null : (JSON.parse(row.meta) as Record<string, unknown>),
  };
}

export function toBubble(row: Selectable<Database['bubbles']>): BubbleRecord {
  return {
    channelKey: row.channel_key,
    serial: row.serial,
    userKey: row.user_key,
    sessionId: row.session_id,
    kind: row.kind as BubbleKind,
    text: row.text,
    sentAtMs: Number(row.sent_ms),
    journalSeq: Number(row.journal_seq),
    groupIndex: row.group_index,
    deletedAtMs: row.deleted_ms === null ? null : Number(row.deleted_ms),
  };
}

export function toRoom(row: Database['rooms']): RoomRecord {
  return {
    channelKey: row.channel_key,
    userKey: row.user_key,
    sessionId: row.session_id,
    state: row.state as RoomState,
    lastSeq: Number(row.last_seq),
    lastText: row.last_text,
    lastKind: row.last_kind as JournalKind,
    lastTimestampUnixMs: Number(row.last_ts_ms),
    count: row.count,
    endRequestedSession: row.end_requested_session,
  };
}

export function toConversation(row: Database['conversations']): ConversationRecord {
  return {
    channelKey: row.channel_key,
    convId: row.conv_id,
    userKey: row.user_key,
    sessionId: row.session_id,
    firstSeq: Number(row.first_seq),
    lastSeq: Number(row.last_seq),
    lastText: row.last_text,
    lastTimestampUnixMs: Number(row.last_ts_ms),
    count: row.count,
    ended: row.ended === 1,
  };
}
