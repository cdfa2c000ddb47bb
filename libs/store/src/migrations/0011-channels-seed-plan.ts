import type { Kysely } from 'kysely';

/**
 * The plan the seed file last gave a channel, apart from the plan in force: a restart applying the same seed keeps
 * a plan an Admin set since (`PUT /api/agent/settings/plan`); a seed that changes its value applies it. Left empty
 * here (a plan in force may be an Admin's already): the next seed applied records its value, keeping the plan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').addColumn('seed_plan', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('seed_plan').execute();
}
