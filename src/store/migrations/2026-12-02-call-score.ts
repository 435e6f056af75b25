/**
 * `calls.current_score`: the score of the call's current result (null before its first scoring, when skipped, or
 * when the current result has no score), written by the scoring worker in the transaction that makes a result
 * current. The dashboard's grouped scan of 100,000 calls spent about half of its time joining each call to
 * `score_results … is_current = 1`; with the score on the row it reads `calls` alone.
 *
 * The backfill copies the current results' scores; only calls that have a scored current result are written (on
 * PostgreSQL every updated row is a new row version). Dialect-neutral: a correlated subquery, no UPDATE … FROM.
 * Frozen once shipped.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // `real` like score_results.score, so the copy is exact on both databases.
  await db.schema.alterTable('calls').addColumn('current_score', 'real').execute();
  await sql`update calls set current_score = (
      select r.score from score_results r where r.call_id = calls.id and r.is_current = 1
    )
    where id in (select call_id from score_results where is_current = 1 and score is not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calls').dropColumn('current_score').execute();
}
