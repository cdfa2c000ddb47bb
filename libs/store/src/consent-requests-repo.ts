import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** A customer's consultation on a channel. */
export interface ConsultationRef {
  channelKey: string;
  userKey: string;
  sessionId: string;
}

/** The relay of a consultation's consent result, taken; `recordMade`: its request was not known here before. */
export interface RelayClaim extends ConsultationRef {
  recordMade: boolean;
}

/**
 * Personal-info consent requests, one per consultation. The request is reserved before its bubble is sent, so
 * two requests at once (on any instance) cannot both go out, and released when the messenger refuses it. Its
 * result is relayed once (see claimRelay); the values are never stored.
 */
export class ConsentRequestsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * True when the consultation had no request yet (it has one now, sent at `requestedMs` as the bubble `serial`), or
   * its request is of that very bubble: a keyed send resumed after a crash sending the same serial again.
   */
  async reserve(ref: ConsultationRef, requestedMs: number, serial: string): Promise<boolean> {
    const inserted = await this.db
      .insertInto('consent_requests')
      .values({ channel_key: ref.channelKey, user_key: ref.userKey, session_id: ref.sessionId, requested_ms: requestedMs, serial })
      .onConflict((oc) => oc.columns(['channel_key', 'user_key', 'session_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const held = await this.db
      .selectFrom('consent_requests')
      .select('serial')
      .where('channel_key', '=', ref.channelKey)
      .where('user_key', '=', ref.userKey)
      .where('session_id', '=', ref.sessionId)
      .executeTakeFirst();
    return held?.serial === serial;
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
   * Takes the relay of the consultation's consent result, once, as the messenger repeats a callback it got no answer
   * to: undefined when it was taken before. A consultation whose request another tool sent (unknown here) gets its
   * record now, as if requested at `relayedMs` (the messenger allows no second request in it either); the claim
   * says so, for releaseRelay.
   */
  async claimRelay(ref: ConsultationRef, relayedMs: number): Promise<RelayClaim | undefined> {
    const inserted = await this.db
      .insertInto('consent_requests')
      .values({ channel_key: ref.channelKey, user_key: ref.userKey, session_id: ref.sessionId, requested_ms: relayedMs, relayed_ms: relayedMs })
      .onConflict((oc) => oc.columns(['channel_key', 'user_key', 'session_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { ...ref, recordMade: true };
    const updated = await this.db
      .updateTable('consent_requests')
      .set({ relayed_ms: relayedMs })
      .where('channel_key', '=', ref.channelKey)
      .where('user_key', '=', ref.userKey)
      .where('session_id', '=', ref.sessionId)
      .where('relayed_ms', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1 ? { ...ref, recordMade: false } : undefined;
  }

  /**
   * Gives the relay back when it could not start, so that the messenger's repeat of the callback relays; a record the
   * claim made goes with it, leaving the consultation free for this service's own request.
   */
  async releaseRelay(claim: RelayClaim): Promise<void> {
    if (claim.recordMade) {
      await this.release(claim);
      return;
    }
    await this.db
      .updateTable('consent_requests')
      .set({ relayed_ms: null })
      .where('channel_key', '=', claim.channelKey)
      .where('user_key', '=', claim.userKey)
      .where('session_id', '=', claim.sessionId)
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
