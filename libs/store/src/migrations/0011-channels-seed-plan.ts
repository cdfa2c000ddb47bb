import { type Kysely, sql } from 'kysely';

/**
 * The plan the seed file last gave a channel, apart from the plan in force: a restart applying the same seed keeps
 * a plan an Admin set since (`PUT /api/agent/settings/plan`); a seed that changes its value applies it. The plans
 * in force were all the seed's until now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').addColumn('seed_plan', 'integer').execute();
  await sql`update channels set seed_plan = plan_consultations`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('seed_plan').execute();
}
