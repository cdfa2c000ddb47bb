import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** A customer's consultation on a channel. */
export interface ConsultationRef {
  channelKey: string;
  userKey: string;
  sessionId: string;
}

/**
 * Personal-info consent requests, one per consultation. The request is reserved before its bubble is sent, so
 * two requests at once (on any instance) cannot both go out, and released when the messenger refuses it. Its
 * result is relayed once (see claimRelay); the values are never stored.
 */
export class ConsentRequestsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** True when the consultation had no request yet; it has one now, sent at `requestedMs`. */
  async reserve(ref: ConsultationRef, requestedMs: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('consent_requests')
      .values({ channel_key: ref.channelKey, user_key: ref.userKey, session_id: ref.sessionId, requested_ms: requestedMs })
      .onConflict((oc) => oc.columns(['channel_key', 'user_key', 'session_id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async release(ref: ConsultationRef): Promise<void> {
    await this.db
      .deleteFrom('consent_requests')
      .where('channel_key', '=', ref.channelKey)
      .where('user_key', '=', ref.userKey)
      .where('session_id', '=', ref.sessionId)
      .execute();
  }

  /**
   * Takes the relay of the consultation's consent result: true the first time, false once taken, as the messenger
   * repeats a callback it got no answer to. A consultation whose request another tool sent (unknown here) gets its
   * record now, as if requested at `relayedMs`: the messenger allows no second request in it either.
   */
  async claimRelay(ref: ConsultationRef, relayedMs: number): Promise<boolean> {
    const claimed = await this.db
      .insertInto('consent_requests')
      .values({ channel_key: ref.channelKey, user_key: ref.userKey, session_id: ref.sessionId, requested_ms: relayedMs, relayed_ms: relayedMs })
      .onConflict((oc) =>
        oc
          .columns(['channel_key', 'user_key', 'session_id'])
          .doUpdateSet({ relayed_ms: relayedMs })
          .where('consent_requests.relayed_ms', 'is', null),
      )
      .executeTakeFirst();
    return Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Gives the relay back when it could not start, so that the messenger's repeat of the callback relays. */
  async releaseRelay(ref: ConsultationRef): Promise<void> {
    await this.db
      .updateTable('consent_requests')
      .set({ relayed_ms: null })
      .where('channel_key', '=', ref.channelKey)
      .where('user_key', '=', ref.userKey)
      .where('session_id', '=', ref.sessionId)
      .execute();
  }

  /** When the consultation's request was sent; undefined when it had none. */
  async requestedAtMs(ref: ConsultationRef): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('consent_requests')
      .select('requested_ms')
      .where('channel_key', '=', ref.channelKey)
      .where('user_key', '=', ref.userKey)
      .where('session_id', '=', ref.sessionId)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.requested_ms);
  }
}
