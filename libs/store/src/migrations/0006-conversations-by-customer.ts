import type { Kysely } from 'kysely';

/**
 * Conversations are one per customer and session: a messenger that handed the same session id to two customers
 * gives each a conversation of its own. Existing rows keep their `conv_id` (the session id), so every convId
 * already handed out keeps naming the same conversation; (channel, customer, session) was unique already, as
 * the session id alone was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('conversations_customer_session').on('conversations').columns(['channel_key', 'user_key', 'session_id']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('conversations_customer_session').execute();
}
