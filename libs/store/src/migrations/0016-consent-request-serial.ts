import type { Kysely } from 'kysely';

/**
 * The serial of the bubble a consent request reserved its consultation for: a keyed send resumed after a crash
 * sends that serial again, and finds the reservation its own rather than a second request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('consent_requests').addColumn('serial', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('consent_requests').dropColumn('serial').execute();
}
