import type { Kysely } from 'kysely';

/**
 * When a key was revoked. A revoked key's row stays, so that the seed file naming its token again never brings it
 * back, and a start never takes a deployment whose keys were all revoked for a new one (the demo keys).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('revoked_ms', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('revoked_ms').execute();
}
