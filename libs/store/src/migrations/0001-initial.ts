import { type Kysely, sql } from 'kysely';

/** Brands, channels, API keys, and the journal with its per-channel sequence, rooms and conversations. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('brands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('channels')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('chatbot_builder', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('plan_consultations', 'integer', (c) => c.notNull())
    .addColumn('sender_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_key_brands')
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
    .addPrimaryKeyConstraint('api_key_brands_pk', ['key_id', 'brand_id'])
    .execute();

  await db.schema
    .createTable('channel_seq')
    .addColumn('channel_key', 'text', (c) => c.primaryKey().references('channels.key'))
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('journal')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('ts_ms', 'bigint', (c) => c.notNull())
    .addColumn('serial', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('by_bot', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('meta', 'text')
    .addPrimaryKeyConstraint('journal_pk', ['channel_key', 'seq'])
    .execute();
  await db.schema.createIndex('journal_room').on('journal').columns(['channel_key', 'user_key', 'seq']).execute();
  await db.schema.createIndex('journal_session').on('journal').columns(['channel_key', 'session_id', 'seq']).execute();
  await db.schema
    .createIndex('journal_serial')
    .on('journal')
    .columns(['channel_key', 'serial'])
    .where(sql.ref('serial'), 'is not', null)
    .execute();

  await db.schema
    .createTable('rooms')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_text', 'text', (c) => c.notNull())
    .addColumn('last_kind', 'text', (c) => c.notNull())
    .addColumn('last_ts_ms', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('end_requested_session', 'text')
    .addPrimaryKeyConstraint('rooms_pk', ['channel_key', 'user_key'])
    .execute();
  await db.schema.createIndex('rooms_state').on('rooms').columns(['channel_key', 'state', 'last_seq']).execute();

  await db.schema
    .createTable('conversations')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('conv_id', 'text', (c) => c.notNull())
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_text', 'text', (c) => c.notNull())
    .addColumn('last_ts_ms', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('ended', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('conversations_pk', ['channel_key', 'conv_id'])
    .execute();
  await db.schema.createIndex('conversations_recent').on('conversations').columns(['channel_key', 'last_seq']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['conversations', 'rooms', 'journal', 'channel_seq', 'api_key_brands', 'api_keys', 'channels', 'brands']) {
    await db.schema.dropTable(table).execute();
  }
}
