import type { Kysely } from 'kysely';

/** Files uploaded to the messenger through the service, so that sends can tell our upload URLs from others. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('image_type', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('uploads').execute();
}
