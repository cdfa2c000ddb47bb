import { type Kysely, sql } from 'kysely';
import type { JournalKind } from '@brandwire/domain';
import {
  type BubbleRecord,
  type ConversationRecord,
  type JournalItem,
  type NewJournalItem,
  type RoomRecord,
  toBubble,
  toConversation,
  toItem,
  toRoom,
} from './journal-records';
import { appendInTransaction } from './journal-transaction';
import type { Transactions } from './transactions';
import type { Database } from './schema';

export type { BubbleRecord, ConversationRecord, JournalItem, NewBubble, NewJournalItem, RoomRecord, RoomState } from './journal-records';

/** Told of a room whose items this process just wrote (or tried to: also when the write failed). */
export type RoomChangeListener = (channelKey: string, userKey: string) => void;

/** A listener's failure must not turn a committed write into a failed one, nor keep other listeners uninformed. */
export function tellRoomChange(listener: RoomChangeListener, channelKey: string, userKey: string): void {
  try {
    listener(channelKey, userKey);
  } catch (error) {
    process.emitWarning(`a room change listener failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The journal: one item per event and channel, `seq` increasing per channel and never reused.
 * Every write is one transaction that takes the channel's sequence row first, so concurrent writers
 * (also on other instances sharing PostgreSQL) are serialised per channel.
 */
export class JournalRepo {
  private readonly roomListeners = new Set<RoomChangeListener>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres',
    private readonly tx: Transactions,
  ) {}

  /** Journals the items in order, updating their rooms and conversations, and returns them with their `seq`. */
  async append(channelKey: string, items: readonly NewJournalItem[]): Promise<JournalItem[]> {
    if (items.length === 0) return [];
    return this.changingRooms(channelKey, items, this.tx.run((trx) => appendInTransaction(trx, channelKey, items)));
  }

  /**
   * Calls the listener after each write of this process that changed (or may have changed) a room's items,
   * once the write has ended. Writes of other processes sharing a PostgreSQL database are not seen.
   */
  onRoomChange(listener: RoomChangeListener): () => void {
    this.roomListeners.add(listener);
    return () => this.roomListeners.delete(listener);
  }

  private async changingRooms<T>(channelKey: string, items: readonly NewJournalItem[], write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      // also after a failure: a reader on the same SQLite connection may have seen rows that were rolled back
      const userKeys = new Set(items.map((item) => item.userKey));
      for (const userKey of userKeys) for (const listener of this.roomListeners) tellRoomChange(listener, channelKey, userKey);
    }
  }

  /**
   * Journals the end of a consultation once: the service records an end it asked for at once, and the
   * messenger reports it again later; whichever comes second finds the conversation ended and adds nothing.
   */
  async appendSessionEnd(channelKey: string, item: NewJournalItem): Promise<JournalItem | undefined> {
    return this.changingRooms(channelKey, [item], this.tx.run(async (trx) => {
      await this.holdChannel(trx, channelKey);
      const conversation = await trx
        .selectFrom('conversations')
        .select('ended')
        .where('channel_key', '=', channelKey)
        .where('user_key', '=', item.userKey)
        .where('session_id', '=', item.sessionId)
        .executeTakeFirst();
      if (conversation?.ended === 1) return undefined;
      const [stored] = await appendInTransaction(trx, channelKey, [item]);
      return stored;
    }));
  }

  /** Holds the channel's seq row till the transaction ends (FOR UPDATE on PostgreSQL; SQLite writes one transaction at a time). */
  private async holdChannel(trx: Kysely<Database>, channelKey: string): Promise<void> {
    let lock = trx.selectFrom('channel_seq').select('last_seq').where('channel_key', '=', channelKey);
    if (this.dialect === 'postgres') lock = lock.forUpdate();
    await lock.executeTakeFirst();
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
    return this.changingRooms(channelKey, [deletedItem], this.tx.run(async (trx) => {
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
    }));
  }

  /** A customer's latest `max` items, newest first; with `before`, those before that seq. */
  async listMessages(channelKey: string, userKey: string, max: number, before?: number): Promise<JournalItem[]> {
    let query = this.db.selectFrom('journal').selectAll().where('channel_key', '=', channelKey).where('user_key', '=', userKey);
    if (before !== undefined) query = query.where('seq', '<', before);
    const rows = await query.orderBy('seq', 'desc').limit(max).execute();
    return rows.map(toItem);
  }

  /**
   * Journals `item` unless one like it (`match`) is among the customer's latest `window` items: a callback the
   * messenger repeats, also to another instance at the same moment, is journaled once. The check and the write
   * are one transaction holding the channel's seq row, as every write of the channel does (FOR UPDATE on
   * PostgreSQL; SQLite writes one transaction at a time). `earlierSeq` is the one found.
   */
  async appendUnlessRecent(channelKey: string, item: NewJournalItem, match: RecentMatch, window: number): Promise<{ item?: JournalItem; earlierSeq?: number }> {
    return this.changingRooms(channelKey, [item], this.tx.run(async (trx) => {
      await this.holdChannel(trx, channelKey);
      const earlierSeq = await recentSeq(trx, channelKey, item.userKey, match, window);
      if (earlierSeq !== undefined) return { earlierSeq };
      const [stored] = await appendInTransaction(trx, channelKey, [item]);
      return { item: stored };
    }));
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

  /** Forgets an end the messenger did not carry out (refused or out of reach), unless another was asked since. */
  async clearEndRequested(channelKey: string, userKey: string, sessionId: string): Promise<void> {
    await this.db
      .updateTable('rooms')
      .set({ end_requested_session: null })
      .where('channel_key', '=', channelKey)
      .where('user_key', '=', userKey)
      .where('end_requested_session', '=', sessionId)
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

  /** The conversations of a session id, on any channel and of any customer (at most `max`). */
  async findSessionConversations(sessionId: string, max: number): Promise<ConversationRecord[]> {
    const rows = await this.db.selectFrom('conversations').selectAll().where('session_id', '=', sessionId).limit(max).execute();
    return rows.map(toConversation);
  }

  /** The conversation of a customer's session, whatever its convId. */
  async findCustomerConversation(channelKey: string, userKey: string, sessionId: string): Promise<ConversationRecord | undefined> {
    const row = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('user_key', '=', userKey)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return row && toConversation(row);
  }

  async getConversation(channelKey: string, convId: string): Promise<{ conversation: ConversationRecord; items: JournalItem[] } | undefined> {
    const conversation = await this.findConversation(channelKey, convId);
    if (!conversation) return undefined;
    const items = await this.db
      .selectFrom('journal')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where('session_id', '=', conversation.sessionId)
      .where('user_key', '=', conversation.userKey)
      .orderBy('seq')
      .execute();
    return { conversation, items: items.map(toItem) };
  }


  /**
   * When the customer last wrote in a consultation (its latest `message`, else its `reference`): the time from
   * which the messenger counts the session's 30 days. Undefined when nothing of that session is journaled.
   */
  async lastCustomerActivityMs(channelKey: string, userKey: string, sessionId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('journal')
      .select((eb) => eb.fn.max('ts_ms').as('ts_ms'))
      .where('channel_key', '=', channelKey)
      .where('session_id', '=', sessionId)
      .where('user_key', '=', userKey)
      .where('kind', 'in', ['message', 'reference'])
      .executeTakeFirst();
    return row?.ts_ms === null || row?.ts_ms === undefined ? undefined : Number(row.ts_ms);
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

/** Which earlier item a repeated callback would have left: its kind and session, and its meta when given. */
export interface RecentMatch {
  kind: JournalKind;
  sessionId: string;
  meta?: Record<string, unknown>;
}

/** The seq of the newest item like `match` among the customer's latest `window` items. */
async function recentSeq(db: Kysely<Database>, channelKey: string, userKey: string, match: RecentMatch, window: number): Promise<number | undefined> {
  const latest = db.selectFrom('journal').select(['seq', 'kind', 'session_id', 'meta']).where('channel_key', '=', channelKey).where('user_key', '=', userKey).orderBy('seq', 'desc').limit(window).as('latest');
  let query = db.selectFrom(latest).select('seq').where('kind', '=', match.kind).where('session_id', '=', match.sessionId);
  // meta is stored as JSON.stringify wrote it (journal-transaction.ts)
  if (match.meta !== undefined) query = query.where('meta', '=', JSON.stringify(match.meta));
  const row = await query.orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row === undefined ? undefined : Number(row.seq);
}
