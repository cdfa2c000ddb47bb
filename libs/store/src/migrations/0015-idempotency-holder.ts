import type { Kysely } from 'kysely';

/**
 * Who holds a keyed send's claim while it is answered (`holder`: one running service, which renews `held_ms` while it
 * does), and the serials that attempt has handed to the messenger so far (`attempt_serials`, written before each
 * call): a retry finding the claim's holder gone (stopped by a crash mid-send) takes the claim over and sends those
 * serials again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('holder', 'text').execute();
  await db.schema.alterTable('idempotency_keys').addColumn('held_ms', 'bigint').execute();
  await db.schema.alterTable('idempotency_keys').addColumn('attempt_serials', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('attempt_serials').execute();
  await db.schema.alterTable('idempotency_keys').dropColumn('held_ms').execute();
  await db.schema.alterTable('idempotency_keys').dropColumn('holder').execute();
}
