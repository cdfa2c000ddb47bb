import type { Kysely } from 'kysely';

/** Sent bubbles (for delete), the plan's used consultation count, and the consultations served per day. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bubbles')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('sent_ms', 'bigint', (c) => c.notNull())
    .addColumn('journal_seq', 'bigint', (c) => c.notNull())
    .addColumn('group_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_ms', 'bigint')
    .addPrimaryKeyConstraint('bubbles_pk', ['channel_key', 'serial'])
    .execute();
  await db.schema.createIndex('bubbles_recent').on('bubbles').columns(['channel_key', 'user_key', 'sent_ms']).execute();
  await db.schema.createIndex('bubbles_group').on('bubbles').columns(['channel_key', 'journal_seq']).execute();

  await db.schema.alterTable('channels').addColumn('consultations_used', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('served_consultations')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('served_consultations_pk', ['channel_key', 'session_id', 'day'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['key_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_age').on('idempotency_keys').column('created_ms').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropTable('served_consultations').execute();
  await db.schema.alterTable('channels').dropColumn('consultations_used').execute();
  await db.schema.dropTable('bubbles').execute();
}
