import { createHash } from 'node:crypto';
import { type JournalKind, signalsOf } from '@brandwire/domain';
import { CompiledQuery, type QueryResult, type Transaction, sql } from 'kysely';
import { type JournalItem, type NewJournalItem, type RoomState, toItem } from './journal-records';
import type { Database } from './schema';

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
 * The statements of a journal write, the service's busiest: written out as SQL (the same text on SQLite and
 * PostgreSQL but for the placeholders) and run as compiled queries, which spares building and compiling each
 * with Kysely's query builder on every write.
 */
class Statement {
  private numbered: string | undefined;

  constructor(private readonly text: string) {}

  run<R>(trx: Transaction<Database>, parameters: unknown[]): Promise<QueryResult<R>> {
    const text = placeholderStyle(trx) === 'qmark' ? this.text : (this.numbered ??= toNumbered(this.text));
    return trx.executeQuery(CompiledQuery.raw(text, parameters) as CompiledQuery<R>);
  }
}

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (the texts here have no `?` in literals). */
function toNumbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${(n += 1)}`);
}

type PlaceholderStyle = 'qmark' | 'numbered';
const styles = new WeakMap<Transaction<Database>, PlaceholderStyle>();

/** How the transaction's dialect writes placeholders, asked of Kysely's compiler once per transaction. */
function placeholderStyle(trx: Transaction<Database>): PlaceholderStyle {
  let style = styles.get(trx);
  if (style === undefined) {
    style = sql`${0}`.compile(trx).sql === '?' ? 'qmark' : 'numbered';
    styles.set(trx, style);
  }
  return style;
}

/** One statement per number of rows, for inserts of a few rows each. */
function rowsStatement(head: string, row: string): (rows: number) => Statement {
  const byRows = new Map<number, Statement>();
  return (rows) => {
    let statement = byRows.get(rows);
    if (statement === undefined) {
      statement = new Statement(`${head} values ${Array.from({ length: rows }, () => row).join(', ')}`);
      byRows.set(rows, statement);
    }
    return statement;
  };
}

const ALLOCATE_SEQ = new Statement('update "channel_seq" set "last_seq" = "last_seq" + ? where "channel_key" = ? returning "last_seq"');

const INSERT_JOURNAL = new Statement(
  'insert into "journal" ("channel_key", "seq", "user_key", "session_id", "kind", "text", "ts_ms", "serial", "by_bot", "meta") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

const insertBubbles = rowsStatement(
  'insert into "bubbles" ("channel_key", "serial", "user_key", "session_id", "kind", "text", "sent_ms", "journal_seq", "group_index", "deleted_ms")',
  '(?, ?, ?, ?, ?, ?, ?, ?, ?, null)',
);

/**
 * A new signal is 'pending' (to be delivered) when its channel has a webhook set, else 'none': read by the
 * insert itself from the channel's settings as they are in this transaction, so no change of the webhook (by
 * this instance or another sharing the database) can be missed, and without a statement of its own.
 */
const insertSignals = rowsStatement(
  'insert into "signals" ("channel_key", "seq", "part", "user_key", "payload", "created_ms", "state")',
  `(?, ?, ?, ?, ?, ?, coalesce((select case when "webhook_url" <> '' then 'pending' end from "channel_settings" where "channel_key" = ?), 'none'))`,
);

const ROOM_INSERT =
  'insert into "rooms" ("channel_key", "user_key", "session_id", "state", "count", "end_requested_session", "last_seq", "last_text", "last_kind", "last_ts_ms") ' +
  'values (?, ?, ?, ?, 1, null, ?, ?, ?, ?) on conflict ("channel_key", "user_key") do update set ' +
  '"last_seq" = excluded."last_seq", "last_text" = excluded."last_text", "last_kind" = excluded."last_kind", "last_ts_ms" = excluded."last_ts_ms", "count" = "rooms"."count" + 1';

/** (a late message of a consultation that has ended is not one: its conversation says so) */
const MESSAGE_OF_UNKNOWN_START =
  `excluded."session_id" <> '' and excluded."session_id" <> "rooms"."session_id" and ("rooms"."state" <> 'in_progress' or "rooms"."session_id" = '') ` +
  `and not exists (select 1 from "conversations" where "channel_key" = excluded."channel_key" and "user_key" = excluded."user_key" and "session_id" = excluded."session_id" and "ended" = 1)`;

/** The room upsert by what the item does to the room's consultation. */
const TOUCH_ROOM = {
  /** a new consultation: the room takes its session, in progress */
  starts: new Statement(`${ROOM_INSERT}, "session_id" = excluded."session_id", "end_requested_session" = null, "state" = 'in_progress'`),
  /** an end: the room's state changes, unless the end was reported late for an earlier session */
  ends: new Statement(`${ROOM_INSERT}, "state" = case when "rooms"."session_id" = excluded."session_id" then excluded."state" else "rooms"."state" end`),
  /**
   * a customer's message of another session than that of a room not in progress (or of none known): a consultation
   * whose start was not reported, or not yet (the messenger repeats it), which the room takes as a start
   */
  continues: new Statement(
    `${ROOM_INSERT}, ` +
      [
        ['session_id', 'excluded."session_id"', '"rooms"."session_id"'],
        ['end_requested_session', 'null', '"rooms"."end_requested_session"'],
        ['state', "'in_progress'", '"rooms"."state"'],
      ]
        .map(([column, adopted, kept]) => `"${column}" = case when ${MESSAGE_OF_UNKNOWN_START} then ${adopted} else ${kept} end`)
        .join(', '),
  ),
  /** anything else keeps the room's session and state */
  keeps: new Statement(ROOM_INSERT),
};

/**
 * A conversation is one customer's session. Its convId is the session id, unless a conversation of another
 * customer has that convId already (a messenger that reused a session id), or the session is not known: then
 * `<session id>-u<hash of the customer key>`, so the two are never merged and every convId can be asked for.
 */
const CONVERSATION_INSERT =
  'insert into "conversations" ("channel_key", "conv_id", "user_key", "session_id", "first_seq", "last_seq", "last_text", "last_ts_ms", "count", "ended") ' +
  'values (?, case when exists (select 1 from "conversations" where "channel_key" = ? and "conv_id" = ? and "user_key" <> ?) then ? else ? end, ?, ?, ?, ?, ?, ?, 1, ?) ' +
  'on conflict ("channel_key", "user_key", "session_id") do update set ' +
  '"last_seq" = excluded."last_seq", "last_text" = excluded."last_text", "last_ts_ms" = excluded."last_ts_ms", "count" = "conversations"."count" + 1';

const TOUCH_CONVERSATION = {
  ends: new Statement(`${CONVERSATION_INSERT}, "ended" = 1`),
  continues: new Statement(CONVERSATION_INSERT),
};

/** Journals items in an open transaction: seqs, signals (the outbox), bubbles, rooms and conversations. */
export async function appendInTransaction(trx: Transaction<Database>, channelKey: string, items: readonly NewJournalItem[]): Promise<JournalItem[]> {
  const allocated = (await ALLOCATE_SEQ.run<{ last_seq: number | string }>(trx, [items.length, channelKey])).rows[0];
  if (!allocated) throw new Error(`channel ${channelKey} has no journal sequence`);
  let seq = Number(allocated.last_seq) - items.length;
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
    await INSERT_JOURNAL.run(trx, [row.channel_key, row.seq, row.user_key, row.session_id, row.kind, row.text, row.ts_ms, row.serial, row.by_bot, row.meta]);
    const bubbles = item.bubbles ?? [];
    if (bubbles.length > 0) {
      const values: unknown[] = [];
      for (const b of bubbles) values.push(channelKey, b.serial, item.userKey, item.sessionId, b.kind, b.text, item.timestampUnixMs, seq, b.groupIndex);
      await insertBubbles(bubbles.length).run(trx, values);
    }
    // The transactional outbox: an item's signals commit with it, so an accepted event never loses its signal.
    const signals = signalsOf({
      channelKey,
      seq,
      userKey: item.userKey,
      kind: item.kind,
      timestampUnixMs: item.timestampUnixMs,
      serial: item.serial ?? null,
      serials: bubbles.map((b) => b.serial),
      meta: item.meta ?? null,
    });
    const values: unknown[] = [];
    for (const s of signals) values.push(channelKey, seq, s.part, item.userKey, JSON.stringify(s.payload), item.timestampUnixMs, channelKey);
    await insertSignals(signals.length).run(trx, values);
    await touchRoom(trx, channelKey, item, seq);
    await touchConversation(trx, channelKey, item, seq);
    stored.push(toItem({ ...row, deleted: 0 }));
  }
  return stored;
}

async function touchRoom(trx: Transaction<Database>, channelKey: string, item: NewJournalItem, seq: number): Promise<void> {
  const state = roomStateAfter(item.kind);
  const statement = item.kind === 'reference' ? TOUCH_ROOM.starts : state ? TOUCH_ROOM.ends : item.kind === 'message' ? TOUCH_ROOM.continues : TOUCH_ROOM.keeps;
  await statement.run(trx, [channelKey, item.userKey, item.sessionId, state ?? 'in_progress', seq, item.text, item.kind, item.timestampUnixMs]);
}

async function touchConversation(trx: Transaction<Database>, channelKey: string, item: NewJournalItem, seq: number): Promise<void> {
  const ends = item.kind === 'ended' || item.kind === 'expired' ? 1 : 0;
  const statement = ends ? TOUCH_CONVERSATION.ends : TOUCH_CONVERSATION.continues;
  const { sessionId, userKey } = item;
  const ownConvId = customerConvId(sessionId, userKey);
  // items of no known session (an agent's send before any callback of the customer) are theirs alone too
  const convId = sessionId === '' ? ownConvId : sessionId;
  await statement.run(trx, [channelKey, channelKey, sessionId, userKey, ownConvId, convId, userKey, sessionId, seq, seq, item.text, item.timestampUnixMs, ends]);
}

/** The convId of a customer's conversation whose session id another customer's conversation has taken already. */
export function customerConvId(sessionId: string, userKey: string): string {
  return `${sessionId}-u${createHash('sha256').update(userKey, 'utf8').digest('hex').slice(0, 12)}`;
}
