import type { Kysely } from 'kysely';
import type { Database } from './schema';
import type { Transactions } from './transactions';

/** What an uploaded bubble (an image, a file) was sent with: its upload, and the image's caption. */
export interface SentContent {
  url: string;
  name: string;
  size: number;
  caption: string | null;
}

/** What a retry of an attempt whose messenger call got no answer needs: its serials, and the session it sent in. */
export interface UncertainAttempt {
  serials: string[];
  /** the customer's session when it was sent (null: none known) */
  sessionId: string | null;
  /** by serial, what the attempt's uploaded bubbles were sent with, so that a retry sends them again as they were */
  contents?: Record<string, SentContent>;
}

export type IdempotencyClaim =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'conflict' }
  | { kind: 'in_progress' }
  /** an earlier attempt's messenger call got no answer: this one, claiming the key now, sends the same serials */
  | { kind: 'resume'; attempt: UncertainAttempt };

/**
 * Who claims a key: a running service (`id`, new at each start), and which claims of others count as cut off, so
 * that a retry takes them over: those made, and last renewed by their holder, before `othersCutOffBeforeMs` (the
 * holder of one renewed since may still be answering it).
 */
export interface ClaimHolder {
  id: string;
  othersCutOffBeforeMs: number;
}

/** Remembers the first answer to a request made with an Idempotency-Key, per API key. */
export class IdempotencyRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tx: Transactions,
  ) {}

  /**
   * Claims the key for this request, or tells what an earlier request with the same key became; a claim made
   * before `forgottenBeforeMs` counts as forgotten, whether or not a sweep removed it yet. A claim still unanswered
   * is taken over when its attempt ended without knowing whether the messenger delivered it (`keepUncertain`), or
   * when it is another holder's and counts as cut off: then the retry sends the serials that attempt handed out.
   */
  claim(keyId: string, idemKey: string, requestHash: string, nowMs: number, forgottenBeforeMs: number, holder: ClaimHolder): Promise<IdempotencyClaim> {
    return this.tx.run(async (trx) => {
      await trx.deleteFrom('idempotency_keys').where('key_id', '=', keyId).where('idem_key', '=', idemKey).where('created_ms', '<', forgottenBeforeMs).execute();
      const inserted = await trx
        .insertInto('idempotency_keys')
        .values({ key_id: keyId, idem_key: idemKey, request_hash: requestHash, status: null, response: null, created_ms: nowMs, uncertain_serials: null, holder: holder.id, held_ms: null, attempt_serials: null })
        .onConflict((oc) => oc.columns(['key_id', 'idem_key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'new' };
      const row = await trx
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'status', 'response', 'created_ms', 'uncertain_serials', 'holder', 'held_ms', 'attempt_serials'])
        .where('key_id', '=', keyId)
        .where('idem_key', '=', idemKey)
        .executeTakeFirstOrThrow();
      if (row.request_hash !== requestHash) return { kind: 'conflict' };
      if (row.status !== null && row.response !== null) return { kind: 'replay', status: row.status, body: JSON.parse(row.response) as unknown };
      // a claim of a release that kept no holder is never taken as cut off: whether it was delivered is not known
      const lastHeld = Math.max(Number(row.created_ms), Number(row.held_ms ?? 0));
      const cutOff = row.holder !== null && row.holder !== holder.id && lastHeld < holder.othersCutOffBeforeMs;
      if (row.uncertain_serials === null && !cutOff) return { kind: 'in_progress' };
      const handedOut = row.uncertain_serials ?? row.attempt_serials;
      // taken over by this claim (its time is the claim's), so a second retry at once waits as in progress; only if
      // it is still the claim read: another instance's retry may have taken it over since
      const taken = await trx
        .updateTable('idempotency_keys')
        .set({ uncertain_serials: null, created_ms: nowMs, holder: holder.id, held_ms: null, attempt_serials: handedOut })
        .where('key_id', '=', keyId)
        .where('idem_key', '=', idemKey)
        .where('created_ms', '=', row.created_ms)
        .where('holder', row.holder === null ? 'is' : '=', row.holder)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return { kind: 'in_progress' };
      return handedOut === null ? { kind: 'new' } : { kind: 'resume', attempt: JSON.parse(handedOut) as UncertainAttempt };
    });
  }

  /** Says that the claims made at these times are still being answered by their holder (see ClaimHolder). */
  async renew(claims: ReadonlyArray<{ keyId: string; idemKey: string; claimedMs: number }>, nowMs: number): Promise<void> {
    if (claims.length === 0) return;
    await this.tx.run(async (trx) => {
      for (const claim of claims) {
        await trx
          .updateTable('idempotency_keys')
          .set({ held_ms: nowMs })
          .where('key_id', '=', claim.keyId)
          .where('idem_key', '=', claim.idemKey)
          .where('created_ms', '=', claim.claimedMs)
          .where('status', 'is', null)
          .execute();
      }
    });
  }

  /**
   * Notes the serials the attempt of the claim made at `claimedMs` hands to the messenger, before it calls it: should
   * that attempt be cut off, the retry that takes the claim over sends them again.
   */
  async noteAttempt(keyId: string, idemKey: string, claimedMs: number, attempt: UncertainAttempt): Promise<void> {
    await this.tx.run((trx) =>
      trx
        .updateTable('idempotency_keys')
        .set({ attempt_serials: JSON.stringify(attempt) })
        .where('key_id', '=', keyId)
        .where('idem_key', '=', idemKey)
        .where('created_ms', '=', claimedMs)
        .where('status', 'is', null)
        .execute(),
    );
  }

  /**
   * Keeps the answer of the claim made at `claimedMs` (the `nowMs` it was made with): a claim of the same key made
   * since, once this one counted as forgotten, is another request's and is left alone.
   */
  async complete(keyId: string, idemKey: string, claimedMs: number, status: number, body: unknown): Promise<void> {
    await this.tx.run((trx) =>
      trx
        .updateTable('idempotency_keys')
        .set({ status, response: JSON.stringify(body) })
        .where('key_id', '=', keyId)
        .where('idem_key', '=', idemKey)
        .where('created_ms', '=', claimedMs)
        .execute(),
    );
  }

  /**
   * Keeps the claim made at `claimedMs` for a retry after its messenger call got no answer (it may have been
   * delivered): the retry takes the key over and sends its serials again.
   */
  async keepUncertain(keyId: string, idemKey: string, claimedMs: number, attempt: UncertainAttempt): Promise<void> {
    await this.tx.run((trx) =>
      trx
        .updateTable('idempotency_keys')
        .set({ uncertain_serials: JSON.stringify(attempt) })
        .where('key_id', '=', keyId)
        .where('idem_key', '=', idemKey)
        .where('created_ms', '=', claimedMs)
        .where('status', 'is', null)
        .execute(),
    );
  }

  /** Frees the key claimed at `claimedMs` after its request failed before the messenger was asked, so a retry runs again. */
  async release(keyId: string, idemKey: string, claimedMs: number): Promise<void> {
    await this.tx.run((trx) =>
      trx.deleteFrom('idempotency_keys').where('key_id', '=', keyId).where('idem_key', '=', idemKey).where('created_ms', '=', claimedMs).where('status', 'is', null).execute(),
    );
  }

  async forgetOlderThan(cutoffMs: number): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('created_ms', '<', cutoffMs).execute();
  }
}
