import type { SignalPayload } from '@brandwire/domain';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from './open-store';
import type { Database } from './schema';
import type { Transactions } from './transactions';

/**
 * 'pending' written into the SQL text rather than bound: SQLite uses the partial index of pending signals only
 * when the query's own text says `state = 'pending'` (a bound parameter could be anything).
 */
const PENDING = sql.lit('pending');

/**
 * The largest `part` storage holds (an `integer` column on PostgreSQL, which refuses a larger number even to
 * compare with), far above any real one: a cursor with it is after every part of its seq.
 */
export const MAX_PART = 2_147_483_647;

/** keys per UPDATE of markDelivered: 600 parameters, well under SQLite's and PostgreSQL's limits */
const MARK_CHUNK = 200;

export type SignalState = 'pending' | 'none' | 'delivered' | 'dead';

export interface SignalRecord {
  channelKey: string;
  seq: number;
  part: number;
  userKey: string;
  payload: SignalPayload;
  createdMs: number;
  state: SignalState;
  attempts: number;
  nextAttemptMs: number;
}

export interface SignalKey {
  channelKey: string;
  seq: number;
  part: number;
}

function toSignal(row: {
  channel_key: string;
  seq: number;
  part: number;
  user_key: string;
  payload: string;
  created_ms: number;
  state: string;
  attempts: number;
  next_attempt_ms: number;
}): SignalRecord {
  return {
    channelKey: row.channel_key,
    seq: Number(row.seq),
    part: row.part,
    userKey: row.user_key,
    payload: JSON.parse(row.payload) as SignalPayload,
    createdMs: Number(row.created_ms),
    state: row.state as SignalState,
    attempts: row.attempts,
    nextAttemptMs: Number(row.next_attempt_ms),
  };
}

/**
 * The signal outbox. Signals are written in the journal item's transaction (see JournalRepo); this repo reads
 * them for catch-up and streams, and moves them through delivery. A channel's deliveries are made by one
 * instance at a time, the holder of the channel's delivery lease.
 */
export class SignalsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly tx: Transactions,
  ) {}

  /**
   * Signals after a cursor, in order. A cursor's part past the column's range (a bare seq, "after every part", is
   * parsed with Number.MAX_SAFE_INTEGER) is taken as MAX_PART, the largest the column holds: the same signals follow it.
   */
  async listAfter(channelKey: string, cursor: { seq: number; part: number }, max: number): Promise<SignalRecord[]> {
    const after = { seq: cursor.seq, part: Math.min(cursor.part, MAX_PART) };
    const rows = await this.db
      .selectFrom('signals')
      .selectAll()
      .where('channel_key', '=', channelKey)
      .where((eb) => eb.or([eb('seq', '>', after.seq), eb.and([eb('seq', '=', after.seq), eb('part', '>', after.part)])]))
      .orderBy('seq')
      .orderBy('part')
      .limit(max)
      .execute();
    return rows.map(toSignal);
  }

  async channelsWithPending(): Promise<string[]> {
    // One index probe per channel, rather than a walk over every pending signal as DISTINCT would make.
    const rows = await this.db
      .selectFrom('channel_settings')
      .select('channel_key')
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('signals').select(sql.lit(1).as('one')).whereRef('signals.channel_key', '=', 'channel_settings.channel_key').where('signals.state', '=', PENDING)),
      )
      .execute();
    return rows.map((r) => r.channel_key);
  }

  /**
   * The pending signals of a channel to try now, each customer's in order: of a customer whose oldest pending
   * signal is due, up to `perCustomer` from it (later ones wait for earlier ones); of a customer whose oldest waits
   * out its back-off, that one only (it tells when to come back). Due customers come first, oldest first, so the
   * customers whose signals keep failing never crowd the others' new signals out of the batch.
   */
  async pending(channelKey: string, limit: number, options: { perCustomer?: number; nowMs?: number } = {}): Promise<SignalRecord[]> {
    const perCustomer = options.perCustomer ?? limit;
    const nowMs = options.nowMs ?? Number.MAX_SAFE_INTEGER;
    const chains = this.db
      .selectFrom('signals')
      .selectAll()
      .select(sql<number>`row_number() over (partition by user_key order by seq, part)`.as('place_in_chain'))
      .select(sql<number>`first_value(next_attempt_ms) over (partition by user_key order by seq, part)`.as('head_due_ms'))
      .where('channel_key', '=', channelKey)
      .where('state', '=', PENDING);
    const rows = await this.db
      .selectFrom(chains.as('c'))
      .selectAll()
      .where((eb) => eb.or([eb('place_in_chain', '=', 1), eb.and([eb('head_due_ms', '<=', nowMs), eb('place_in_chain', '<=', perCustomer)])]))
      .orderBy(sql`case when head_due_ms <= ${nowMs} then 0 else 1 end`)
      .orderBy('seq')
      .orderBy('part')
      .limit(limit)
      .execute();
    return rows.map(toSignal);
  }

  /** Whether a signal of the customer before `seq` still waits to be delivered (not delivered, not given up). */
  async hasPendingBefore(channelKey: string, userKey: string, seq: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('signals')
      .select(sql.lit(1).as('one'))
      .where('channel_key', '=', channelKey)
      .where('state', '=', PENDING)
      .where('seq', '<', seq)
      .where('user_key', '=', userKey)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks delivered signals, many in one transaction (one commit, however many), one statement per 200. */
  async markDelivered(keys: readonly SignalKey[]): Promise<void> {
    if (keys.length === 0) return;
    await this.tx.run(async (trx) => {
      for (let i = 0; i < keys.length; i += MARK_CHUNK) {
        const chunk = keys.slice(i, i + MARK_CHUNK);
        await trx
          .updateTable('signals')
          .set({ state: 'delivered', last_error: null, attempts: sql<number>`attempts + 1` })
          .where((eb) => eb(eb.refTuple('channel_key', 'seq', 'part'), 'in', chunk.map((k) => eb.tuple(k.channelKey, k.seq, k.part))))
          .execute();
      }
    });
  }

  /**
   * After the channel's webhook was removed: its pending signals are no longer to be delivered ('none', as those
   * written while it has no webhook; still listed for catch-up). Only while it has none, so a webhook set again
   * meanwhile keeps what was written for it. Returns how many were stopped.
   */
  async stopPendingWithoutWebhook(channelKey: string): Promise<number> {
    const result = await this.db
      .updateTable('signals')
      .set({ state: 'none' })
      .where('channel_key', '=', channelKey)
      .where('state', '=', PENDING)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('channel_settings').select(sql.lit(1).as('one')).where('channel_settings.channel_key', '=', channelKey).where('channel_settings.webhook_url', '<>', ''))),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Records failed attempts with their next attempt time (or gives the signals up), in one transaction; a signal
   * no longer pending (its webhook was removed during the attempt) stays as it is.
   */
  async markFailed(failures: ReadonlyArray<{ key: SignalKey; nextAttemptMs: number; error: string; dead: boolean }>): Promise<void> {
    if (failures.length === 0) return;
    await this.tx.run(async (trx) => {
      for (const { key, nextAttemptMs, error, dead } of failures) {
        await trx
          .updateTable('signals')
          .set({ state: dead ? 'dead' : 'pending', next_attempt_ms: nextAttemptMs, last_error: error.slice(0, 500), attempts: sql<number>`attempts + 1` })
          .where('channel_key', '=', key.channelKey)
          .where('seq', '=', key.seq)
          .where('part', '=', key.part)
          .where('state', '=', PENDING)
          .execute();
      }
    });
  }

  /** After a delivery to the channel's endpoint succeeded: every pending signal of the channel is due now. */
  async expedite(channelKey: string, nowMs: number): Promise<void> {
    await this.db
      .updateTable('signals')
      .set({ next_attempt_ms: nowMs })
      .where('channel_key', '=', channelKey)
      .where('state', '=', PENDING)
      .where('next_attempt_ms', '>', nowMs)
      .execute();
  }

  /**
   * Takes (or renews) the channel's delivery lease for `owner` until `untilMs`. On PostgreSQL the settings row
   * is locked with FOR UPDATE SKIP LOCKED, so instances racing for the same channel never wait on each other.
   */
  async claimChannel(channelKey: string, owner: string, nowMs: number, untilMs: number): Promise<boolean> {
    return this.tx.run(async (trx) => {
      let query = trx
        .selectFrom('channel_settings')
        .select(['delivery_owner', 'delivery_lease_until'])
        .where('channel_key', '=', channelKey);
      if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const row = await query.executeTakeFirst();
      if (!row) return false;
      if (row.delivery_owner !== owner && Number(row.delivery_lease_until) > nowMs) return false;
      await trx.updateTable('channel_settings').set({ delivery_owner: owner, delivery_lease_until: untilMs }).where('channel_key', '=', channelKey).execute();
      return true;
    });
  }

  async releaseChannel(channelKey: string, owner: string): Promise<void> {
    await this.db
      .updateTable('channel_settings')
      .set({ delivery_owner: null, delivery_lease_until: 0 })
      .where('channel_key', '=', channelKey)
      .where('delivery_owner', '=', owner)
      .execute();
  }
}
