import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Deletes of sent bubbles in progress. A delete claims its bubble before it asks the messenger, so the same
 * delete sent to two instances at once goes to the messenger once; a claim lapses at `untilMs` (an instance that
 * died mid-delete does not block the bubble for good) and is released when the delete is done.
 */
export class BubbleDeleteClaimsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** True when no other delete of the bubble is in progress; this one is, until `untilMs` or its release. */
  async claim(channelKey: string, serial: string, nowMs: number, untilMs: number): Promise<boolean> {
    const result = await this.db
      .insertInto('bubble_delete_claims')
      .values({ channel_key: channelKey, serial, until_ms: untilMs })
      .onConflict((oc) =>
        oc
          .columns(['channel_key', 'serial'])
          .doUpdateSet({ until_ms: untilMs })
          .where('bubble_delete_claims.until_ms', '<=', nowMs),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async release(channelKey: string, serial: string): Promise<void> {
    await this.db.deleteFrom('bubble_delete_claims').where('channel_key', '=', channelKey).where('serial', '=', serial).execute();
  }
}
