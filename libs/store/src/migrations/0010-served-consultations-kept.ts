import type { Kysely } from 'kysely';

/**
 * A served consultation's count becomes final when a send relying on it is accepted, whichever send reserved it:
 * only a reservation no accepted send relied on is given back. Rows written before were all settled: kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('served_consultations')
    .addColumn('kept', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('served_consultations').dropColumn('kept').execute();
}
