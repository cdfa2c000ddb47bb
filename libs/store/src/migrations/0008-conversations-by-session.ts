import type { Kysely } from 'kysely';

/** A consultation found by its session id alone: the messenger's consent result may name nothing else. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('conversations_session').on('conversations').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('conversations_session').execute();
}
