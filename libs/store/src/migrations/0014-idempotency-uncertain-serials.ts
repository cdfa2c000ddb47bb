import type { Kysely } from 'kysely';

/**
 * The serials (and the customer's session) of a keyed send whose messenger call got no answer (it may have been
 * delivered): a retry with the same key sends them again, and the messenger's refusal of a used serial tells that
 * the first attempt was delivered, in that session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('uncertain_serials', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('uncertain_serials').execute();
}
