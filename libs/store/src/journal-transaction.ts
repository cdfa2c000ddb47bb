import { type JournalKind, signalsOf } from '@brandwire/domain';
import { type Transaction, sql } from 'kysely';
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

/** Journals items in an open transaction: seqs, signals (the outbox), bubbles, rooms and conversations. */
export async function appendInTransaction(trx: Transaction<Database>, channelKey: string, items: readonly NewJournalItem[]): Promise<JournalItem[]> {
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
