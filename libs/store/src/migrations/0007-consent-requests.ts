import type { Kysely } from 'kysely';

/** A personal-info consent request per customer's consultation: the once-per-session rule, and when it was sent. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('consent_requests')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('requested_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('consent_requests_pk', ['channel_key', 'user_key', 'session_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('consent_requests').execute();
}
