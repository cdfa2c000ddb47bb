import { type BubbleKind, type JournalKind, signalsOf } from '@brandwire/domain';
import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
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

function toItem(row: JournalRow): JournalItem {
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

function toBubble(row: Selectable<Database['bubbles']>): BubbleRecord {
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

function toRoom(row: Database['rooms']): RoomRecord {
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

function toConversation(row: Database['conversations']): ConversationRecord {
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

/** The state a room moves to when an item of this kind is journaled; undefined keeps the room's state. */
function roomStateAfter(kind: JournalKind): RoomState | undefined {
  switch (kind) {
    case 'reference':
      return 'in_progress';
    case 'ended':
      return 'ended';
    case 'expired':
      return 'expired';
    case 'message':
    case 'agent':
    case 'deleted':
      return undefined;
    default: {
      const unreachable: never = kind;
      throw new Error(`unknown journal kind ${String(unreachable)}`);
    }
  }
}

/**
 * The journal: one item per event and channel, `seq` increasing per channel and never reused.
 * Every write is one transaction that takes the channel's sequence row first, so concurrent writers
 * (also on other instances sharing PostgreSQL) are serialised per channel.
 */
export class JournalRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  /** Journals the items in order, updating their rooms and conversations, and returns them with their `seq`. */
  async append(channelKey: string, items: readonly NewJournalItem[]): Promise<JournalItem[]> {
    if (items.length === 0) return [];
    return this.db.transaction().execute((trx) => appendInTransaction(trx, channelKey, items));
  }

  /**
   * Journals the end of a consultation once: the service records an end it asked for at once, and the
   * messenger reports it again later; whichever comes second finds the conversation ended and adds nothing.
   */
  async appendSessionEnd(channelKey: string, item: NewJournalItem): Promise<JournalItem | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('channel_seq').select('last_seq').where('channel_key', '=', channelKey);
      if (this.dialect === 'postgres') lock = lock.forUpdate();
      await lock.executeTakeFirst();
      const conversation = await trx
        .selectFrom('conversations')
        .select('ended')
        .where('channel_key', '=', channelKey)
        .where('conv_id', '=', item.sessionId)
        .executeTakeFirst();
      if (conversation?.ended === 1) return undefined;
      const [stored] = await appendInTransaction(trx, channelKey, [item]);
      return stored;
    });
  }

  async findBubble(channelKey: string, serial: string): Promise<BubbleRecord | undefined> {
    const row = await this.db.selectFrom('bubbles').selectAll().where('channel_key', '=', channelKey).where('serial', '=', serial).executeTakeFirst();
    return row && toBubble(row);
  }

  /** A customer's bubbles sent at or after `sinceMs`, newest first. */
  async listRecentBubbles(channelKey: string, userKey: string, sinceMs: number): Promise<BubbleRecord[]> {
    const rows = await this.db
      .selectFrom('bubbles')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('user_key', '=', userKey)
      .where('sent_ms', '>=', sinceMs)
      .orderBy('sent_ms', 'desc')
      .orderBy('serial', 'desc')
      .execute();
    return rows.map(toBubble);
  }

  /**
   * Marks a bubble deleted and journals `deleted` for it, in one transaction; the sending item gets
   * `deleted` once every bubble it sent is deleted. Undefined when the bubble was deleted already.
   */
  async markBubbleDeleted(channelKey: string, serial: string, deletedItem: NewJournalItem): Promise<JournalItem | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('bubbles')
        .set({ deleted_ms: deletedItem.timestampUnixMs })
        .where('channel_key', '=', channelKey)
        .where('serial', '=', serial)
        .where('deleted_ms', 'is', null)
        .returning('journal_seq')
        .executeTakeFirst();
      if (!updated) return undefined;
      const [item] = await appendInTransaction(trx, channelKey, [deletedItem]);
      const remaining = await trx
        .selectFrom('bubbles')
        .select('serial')
        .where('channel_key', '=', channelKey)
        .where('journal_seq', '=', updated.journal_seq)
        .where('deleted_ms', 'is', null)
        .executeTakeFirst();
      if (!remaining) {
        await trx.updateTable('journal').set({ deleted: 1 }).where('channel_key', '=', channelKey).where('seq', '=', updated.journal_seq).execute();
      }
      return item;
    });
  }

  async listMessages(channelKey: string, userKey: string, max: number): Promise<JournalItem[]> {
    const rows = await this.db
      .selectFrom('journal')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('user_key', '=', userKey)
      .orderBy('seq', 'desc')
      .limit(max)
      .execute();
    return rows.map(toItem);
  }

  async findBySerial(channelKey: string, serial: string): Promise<JournalItem | undefined> {
    const row = await this.db
      .selectFrom('journal')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('serial', '=', serial)
      .orderBy('seq')
      .executeTakeFirst();
    return row && toItem(row);
  }

  async getRoom(channelKey: string, userKey: string): Promise<RoomRecord | undefined> {
    const row = await this.db
      .selectFrom('rooms')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('user_key', '=', userKey)
      .executeTakeFirst();
    return row && toRoom(row);
  }

  /** Rooms with a consultation in progress (or, with `includeClosed`, every room), most recent first. */
  async listRooms(channelKey: string, options: { max: number; includeClosed?: boolean }): Promise<RoomRecord[]> {
    let query = this.db.selectFrom('rooms').selectAll().where('channel_key', '=', channelKey);
    if (!options.includeClosed) query = query.where('state', '=', 'in_progress');
    const rows = await query.orderBy('last_seq', 'desc').limit(options.max).execute();
    return rows.map(toRoom);
  }

  /** Remembers that the service asked the messenger to end this session, so its end callback reads as `ended`. */
  async markEndRequested(channelKey: string, userKey: string, sessionId: string): Promise<void> {
    await this.db
      .updateTable('rooms')
      .set({ end_requested_session: sessionId })
      .where('channel_key', '=', channelKey)
      .where('user_key', '=', userKey)
      .execute();
  }

  async listConversations(channelKey: string, options: { max: number; userKey?: string }): Promise<ConversationRecord[]> {
    let query = this.db.selectFrom('conversations').selectAll().where('channel_key', '=', channelKey);
    if (options.userKey !== undefined) query = query.where('user_key', '=', options.userKey);
    const rows = await query.orderBy('last_seq', 'desc').limit(options.max).execute();
    return rows.map(toConversation);
  }

  async findConversation(channelKey: string, convId: string): Promise<ConversationRecord | undefined> {
    const row = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('conv_id', '=', convId)
      .executeTakeFirst();
    return row && toConversation(row);
  }

  async getConversation(channelKey: string, convId: string): Promise<{ conversation: ConversationRecord; items: JournalItem[] } | undefined> {
    const row = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('conv_id', '=', convId)
      .executeTakeFirst();
    if (!row) return undefined;
    const items = await this.db
      .selectFrom('journal')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('session_id', '=', row.session_id)
      .where('user_key', '=', row.user_key)
      .orderBy('seq')
      .execute();
    return { conversation: toConversation(row), items: items.map(toItem) };
  }

  /** A seq with no journal item, for a signal that must not be stored (the consent result). */
  async reserveSeq(channelKey: string): Promise<number> {
    const row = await this.db
      .updateTable('channel_seq')
      .set({ last_seq: sql<number>`last_seq + 1` })
      .where('channel_key', '=', channelKey)
      .returning('last_seq')
      .executeTakeFirstOrThrow();
    return Number(row.last_seq);
  }

  async lastSeq(channelKey: string): Promise<number> {
    const row = await this.db.selectFrom('channel_seq').select('last_seq').where('channel_key', '=', channelKey).executeTakeFirst();
    return row ? Number(row.last_seq) : 0;
  }
}

async function appendInTransaction(trx: Transaction<Database>, channelKey: string, items: readonly NewJournalItem[]): Promise<JournalItem[]> {
  const allocated = await trx
    .updateTable('channel_seq')
    .set({ last_seq: sql<number>`last_seq + ${items.length}` })
    .where('channel_key', '=', channelKey)
    .returning('last_seq')
    .executeTakeFirst();
  if (!allocated) throw new Error(`channel ${channelKey} has no journal sequence`);
  let seq = Number(allocated.last_seq) - items.length;
  const settings = await trx.selectFrom('channel_settings').select('webhook_url').where('channel_key', '=', channelKey).executeTakeFirst();
  const signalState = settings?.webhook_url ? 'pending' : 'none';
  const stored: JournalItem[] = [];
  for (const item of items) {
    seq += 1;
    const row = {
      channel_key: channelKey,
      seq,
      user_key: item.userKey,
      session_id: item.sessionId,
      kind: item.kind,
      text: item.text,
      ts_ms: item.timestampUnixMs,
      serial: item.serial ?? null,
      by_bot: item.byBot ? 1 : 0,
      meta: item.meta ? JSON.stringify(item.meta) : null,
    };
    await trx.insertInto('journal').values(row).execute();
    if (item.bubbles && item.bubbles.length > 0) {
      await trx
        .insertInto('bubbles')
        .values(
          item.bubbles.map((b) => ({
            channel_key: channelKey,
            serial: b.serial,
            user_key: item.userKey,
            session_id: item.sessionId,
            kind: b.kind,
            text: b.text,
            sent_ms: item.timestampUnixMs,
            journal_seq: seq,
            group_index: b.groupIndex,
            deleted_ms: null,
          })),
        )
        .execute();
    }
    // The transactional outbox: an item's signals commit with it, so an accepted event never loses its signal.
    const signals = signalsOf({ channelKey, seq, userKey: item.userKey, kind: item.kind, timestampUnixMs: item.timestampUnixMs, serial: item.serial ?? null, meta: item.meta ?? null });
    await trx
      .insertInto('signals')
      .values(
        signals.map((s) => ({
          channel_key: channelKey,
          seq,
          part: s.part,
          user_key: item.userKey,
          payload: JSON.stringify(s.payload),
          created_ms: item.timestampUnixMs,
          state: signalState,
        })),
      )
      .execute();
    await touchRoom(trx, channelKey, item, seq);
    await touchConversation(trx, channelKey, item, seq);
    stored.push(toItem({ ...row, deleted: 0 }));
  }
  return stored;
}

async function touchRoom(trx: Transaction<Database>, channelKey: string, item: NewJournalItem, seq: number): Promise<void> {
  const state = roomStateAfter(item.kind);
  const last = { last_seq: seq, last_text: item.text, last_kind: item.kind, last_ts_ms: item.timestampUnixMs };
  await trx
    .insertInto('rooms')
    .values({
      channel_key: channelKey,
      user_key: item.userKey,
      session_id: item.sessionId,
      state: state ?? 'in_progress',
      count: 1,
      end_requested_session: null,
      ...last,
    })
    .onConflict((oc) =>
      oc.columns(['channel_key', 'user_key']).doUpdateSet({
        ...last,
        count: sql<number>`rooms.count + 1`,
        ...(item.kind === 'reference' ? { session_id: item.sessionId, end_requested_session: null, state: 'in_progress' } : {}),
        // An end reported late for an earlier session must not close the consultation now in progress.
        ...(state && item.kind !== 'reference'
          ? { state: sql<string>`case when rooms.session_id = ${item.sessionId} then ${state} else rooms.state end` }
          : {}),
      }),
    )
    .execute();
}

async function touchConversation(trx: Transaction<Database>, channelKey: string, item: NewJournalItem, seq: number): Promise<void> {
  const ends = item.kind === 'ended' || item.kind === 'expired' ? 1 : 0;
  await trx
    .insertInto('conversations')
    .values({
      channel_key: channelKey,
      conv_id: item.sessionId,
      user_key: item.userKey,
      session_id: item.sessionId,
      first_seq: seq,
      last_seq: seq,
      last_text: item.text,
      last_ts_ms: item.timestampUnixMs,
      count: 1,
      ended: ends,
    })
    .onConflict((oc) =>
      oc.columns(['channel_key', 'conv_id']).doUpdateSet({
        last_seq: seq,
        last_text: item.text,
        last_ts_ms: item.timestampUnixMs,
        count: sql<number>`conversations.count + 1`,
        ...(ends ? { ended: 1 } : {}),
      }),
    )
    .execute();
}
