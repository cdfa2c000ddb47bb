import type { Kysely } from 'kysely';

/** Device pairing codes of the CLI's `login` (RFC 8628): the device code only as its SHA-256 hash. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_codes')
    .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_code', 'text', (c) => c.notNull().unique())
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .addColumn('expires_ms', 'bigint', (c) => c.notNull())
    .addColumn('interval_s', 'integer', (c) => c.notNull())
    .addColumn('last_poll_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    // pending -> approved -> issued, or pending -> denied
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('grant_name', 'text')
    .addColumn('grant_scope', 'text')
    .addColumn('grant_brands', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('issued_key_id', 'text')
    .execute();
  await db.schema.createIndex('device_codes_expiry').on('device_codes').column('expires_ms').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_codes').execute();
}
