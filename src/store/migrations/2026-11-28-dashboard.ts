/**
 * Indexes for the dashboard's grouped scans. The expression must match `coalesce(occurred_at, created_at)` in
 * dashboard.repo.ts exactly for the planner to use it. Frozen once shipped.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index calls_dashboard on calls (account_id, (coalesce(occurred_at, created_at)))`.execute(
    db,
  );
  await sql`create index calls_dashboard_team on calls (account_id, team_id, (coalesce(occurred_at, created_at)))`.execute(
    db,
  );
  await sql`create index score_results_current_score on score_results (call_id, score) where is_current = 1`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index score_results_current_score`.execute(db);
  await sql`drop index calls_dashboard_team`.execute(db);
  await sql`drop index calls_dashboard`.execute(db);
}
