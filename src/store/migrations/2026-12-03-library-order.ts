/**
 * The library lists calls by when they happened (`coalesce(occurred_at, created_at)`, the date it shows), newest
 * first, instead of by arrival: a backfill of last year's calls no longer sits above this morning's. Three indexes
 * on that expression and `id` (the keyset tie-break) replace the library's three on `created_at`, and also serve
 * the dashboard's window scans, whose two indexes were their prefixes: six indexes on `calls` instead of eight.
 * The expression must match `happenedAt` in web-calls.repo.ts exactly for the planner to use them. Frozen once
 * shipped.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const name of [
    'calls_library',
    'calls_library_rep',
    'calls_library_team',
    'calls_dashboard',
    'calls_dashboard_team',
  ])
    await db.schema.dropIndex(name).execute();
  await sql`create index calls_happened on calls (account_id, (coalesce(occurred_at, created_at)), id)`.execute(
    db,
  );
  await sql`create index calls_happened_rep on calls (account_id, rep_user_id, (coalesce(occurred_at, created_at)), id)`.execute(
    db,
  );
  await sql`create index calls_happened_team on calls (account_id, team_id, (coalesce(occurred_at, created_at)), id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['calls_happened', 'calls_happened_rep', 'calls_happened_team'])
    await db.schema.dropIndex(name).execute();
  await db.schema.createIndex('calls_library').on('calls').columns(['account_id', 'created_at']).execute();
  await db.schema
    .createIndex('calls_library_rep')
    .on('calls')
    .columns(['account_id', 'rep_user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('calls_library_team')
    .on('calls')
    .columns(['account_id', 'team_id', 'created_at', 'id'])
    .execute();
  await sql`create index calls_dashboard on calls (account_id, (coalesce(occurred_at, created_at)))`.execute(
    db,
  );
  await sql`create index calls_dashboard_team on calls (account_id, team_id, (coalesce(occurred_at, created_at)))`.execute(
    db,
  );
}
