import { type Kysely, sql } from 'kysely';

/** Channel settings (webhook, chat, schedule) and the signal outbox, written with the journal items. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channel_settings')
    .addColumn('channel_key', 'text', (c) => c.primaryKey())
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('chat_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('schedule', 'text')
    .addColumn('delivery_owner', 'text')
    .addColumn('delivery_lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('signals')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    // pending: to deliver; none: no webhook was connected; delivered; dead: gave up after the retry period
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('signals_pk', ['channel_key', 'seq', 'part'])
    .execute();
  await db.schema
    .createIndex('signals_pending')
    .on('signals')
    .columns(['channel_key', 'seq', 'part'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signals').execute();
  await db.schema.dropTable('channel_settings').execute();
}
