import type { Kysely } from 'kysely';

/** A delete of a sent bubble in progress: one at a time per bubble, across every instance of the service. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bubble_delete_claims')
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('until_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('bubble_delete_claims_pk', ['channel_key', 'serial'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bubble_delete_claims').execute();
}
