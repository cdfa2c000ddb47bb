import type { Kysely } from 'kysely';

/**
 * When a consultation's consent result was relayed: the messenger repeats a callback it got no answer to, and the
 * customer's nickname and phone number go out once. Only the time is kept, never the values.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('consent_requests').addColumn('relayed_ms', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('consent_requests').dropColumn('relayed_ms').execute();
}
