import { type Kysely, sql } from 'kysely';
import type { Database } from './schema';
import type { Transactions } from './transactions';

export type Reservation = 'charged' | 'free' | 'exhausted';

export interface ServedConsultation {
  channelKey: string;
  sessionId: string;
  userKey: string;
  day: string;
}

/**
 * The plan's consultation count: a consultation served on a day costs one count the first time, and is free
 * for the rest of that day. Reservation and release are atomic, so concurrent sends never charge twice or
 * pass the plan.
 */
export class BillingRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tx: Transactions,
  ) {}

  async reserve(c: ServedConsultation): Promise<Reservation> {
    return this.tx.run(async (trx) => {
      const inserted = await trx
        .insertInto('served_consultations')
        .values({ channel_key: c.channelKey, session_id: c.sessionId, day: c.day, user_key: c.userKey, kept: 0 })
        .onConflict((oc) => oc.columns(['channel_key', 'session_id', 'day']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return 'free';
      const charged = await trx
        .updateTable('channels')
        .set({ consultations_used: sql<number>`consultations_used + 1` })
        .where('key', '=', c.channelKey)
        .where(sql<boolean>`consultations_used < plan_consultations`)
        .executeTakeFirst();
      if (Number(charged.numUpdatedRows) === 1) return 'charged';
      await trx
        .deleteFrom('served_consultations')
        .where('channel_key', '=', c.channelKey)
        .where('session_id', '=', c.sessionId)
        .where('day', '=', c.day)
        .execute();
      return 'exhausted';
    });
  }

  /**
   * A send relying on the consultation's count was accepted: the count is final, never given back. When the send
   * that reserved it was refused and gave it back meanwhile, the consultation is counted again here: it was served.
   */
  async keep(c: ServedConsultation): Promise<void> {
    await this.tx.run(async (trx) => {
      // a release may remove the row between the insert that found it and the update: then it is inserted again
      for (;;) {
        const inserted = await trx
          .insertInto('served_consultations')
          .values({ channel_key: c.channelKey, session_id: c.sessionId, day: c.day, user_key: c.userKey, kept: 1 })
          .onConflict((oc) => oc.columns(['channel_key', 'session_id', 'day']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
          // served, so counted even past the plan: the plan is checked before a send, and this one was delivered
          await trx
            .updateTable('channels')
            .set({ consultations_used: sql<number>`consultations_used + 1` })
            .where('key', '=', c.channelKey)
            .execute();
          return;
        }
        const kept = await trx
          .updateTable('served_consultations')
          .set({ kept: 1 })
          .where('channel_key', '=', c.channelKey)
          .where('session_id', '=', c.sessionId)
          .where('day', '=', c.day)
          .executeTakeFirst();
        if (Number(kept.numUpdatedRows) === 1) return;
      }
    });
  }

  /** Gives back a count reserved for a send the messenger then refused, unless another send relying on it was accepted. */
  async release(c: ServedConsultation): Promise<void> {
    await this.tx.run(async (trx) => {
      const removed = await trx
        .deleteFrom('served_consultations')
        .where('channel_key', '=', c.channelKey)
        .where('session_id', '=', c.sessionId)
        .where('day', '=', c.day)
        .where('kept', '=', 0)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 1) {
        await trx
          .updateTable('channels')
          .set({ consultations_used: sql<number>`consultations_used - 1` })
          .where('key', '=', c.channelKey)
          .where('consultations_used', '>', 0)
          .execute();
      }
    });
  }

  async setPlan(channelKey: string, consultations: number): Promise<boolean> {
    const result = await this.db.updateTable('channels').set({ plan_consultations: consultations }).where('key', '=', channelKey).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
