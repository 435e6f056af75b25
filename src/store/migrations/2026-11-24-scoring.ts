/**
 * Scoring: results with history, fair claims across accounts, and the indexes the worker's queries need.
 * Frozen once shipped. Dialect-neutral: partial indexes (`CREATE UNIQUE INDEX … WHERE …`) work on both
 * SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('score_results')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id'))
    // No foreign key: a result must outlive a scorecard that is later removed.
    .addColumn('scorecard_id', 'text')
    .addColumn('scorecard_version', 'integer')
    .addColumn('scorer', 'text', (c) => c.notNull())
    .addColumn('score', 'real')
    .addColumn('skip_reason', 'text')
    .addColumn('criteria', 'text', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // At most one current result per call, whatever races between workers: the database says no to a second.
  await db.schema
    .createIndex('score_results_current')
    .on('score_results')
    .column('call_id')
    .unique()
    .where(sql.ref('is_current'), '=', 1)
    .execute();
  await db.schema
    .createIndex('score_results_history')
    .on('score_results')
    .columns(['call_id', 'created_at'])
    .execute();

  // One row per account that ever had a job: claims go to the account served longest ago, so one account's
  // backfill cannot starve another's live calls. Written by enqueue (insert if absent) and by every claim.
  await db.schema
    .createTable('scoring_fairness')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('last_claimed_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into scoring_fairness (account_id, last_claimed_at)
            select distinct account_id, '' from scoring_jobs`.execute(db);

  // Why a job exists: ingest, rerun (manager), reassign, speaker …; kept for the call's audit trail.
  await db.schema.alterTable('scoring_jobs').addColumn('reason', 'text').execute();

  // The claim looks up the oldest ready job of one account: an index seek per account, not a scan of the backlog.
  await db.schema
    .createIndex('scoring_jobs_account_ready')
    .on('scoring_jobs')
    .columns(['account_id', 'status', 'available_at'])
    .execute();
  // Expired leases are found by (status, lease_until).
  await db.schema
    .createIndex('scoring_jobs_lease')
    .on('scoring_jobs')
    .columns(['status', 'lease_until'])
    .execute();
  // At most one live (queued or running) job per call: a re-queue supersedes the live one instead of adding a twin.
  await db.schema
    .createIndex('scoring_jobs_live_call')
    .on('scoring_jobs')
    .column('call_id')
    .unique()
    .where(sql.ref('status'), '<>', 'done')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scoring_jobs_live_call').execute();
  await db.schema.dropIndex('scoring_jobs_lease').execute();
  await db.schema.dropIndex('scoring_jobs_account_ready').execute();
  await db.schema.alterTable('scoring_jobs').dropColumn('reason').execute();
  await db.schema.dropTable('scoring_fairness').execute();
  await db.schema.dropIndex('score_results_history').execute();
  await db.schema.dropIndex('score_results_current').execute();
  await db.schema.dropTable('score_results').execute();
}
