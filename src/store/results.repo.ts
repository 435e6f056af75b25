/**
 * Scoring results with history. A call has at most one current result (a unique partial index says so); a re-score
 * adds a row and flips the previous one, in the same fenced transaction that finishes the job. That transaction
 * also copies the new current score to `calls.current_score`. The only other place `is_current` changes is a
 * re-queue (jobs.repo.ts `requeueCall`), which clears both.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, ScoreResultRow } from './schema.js';
import { finishJob, type JobLease } from './jobs.repo.js';

type Db = Kysely<Database> | Transaction<Database>;

export type { ScoreResultRow };

export interface NewScoreResult {
  scorecardId: string | null;
  scorecardVersion: number | null;
  scorer: string;
  /** 0..100, null when skipped. */
  score: number | null;
  skipReason: string | null;
  /** Per-criterion results with evidence; stored as JSON. */
  criteria: unknown[];
}

/**
 * The fenced write: finishes the job, makes this result the call's current one and sets the call's final status
 * (`scored`, or `skipped` with its reason) and its `current_score`, all or nothing. Returns null, having written
 * nothing, when the lease is no longer the caller's (taken over after expiry, released, or superseded by a
 * re-queue).
 */
export async function recordResult(
  db: Kysely<Database>,
  lease: JobLease,
  result: NewScoreResult,
  now: Date,
): Promise<ScoreResultRow | null> {
  const nowIso = now.toISOString();
  return db.transaction().execute(async (tx) => {
    if (!(await finishJob(tx, lease, now))) return null;
    await tx
      .updateTable('score_results')
      .set({ is_current: 0 })
      .where('call_id', '=', lease.callId)
      .where('is_current', '=', 1)
      .execute();
    const row: ScoreResultRow = {
      id: randomUUID(),
      call_id: lease.callId,
      scorecard_id: result.scorecardId,
      scorecard_version: result.scorecardVersion,
      scorer: result.scorer,
      score: result.score,
      skip_reason: result.skipReason,
      criteria: JSON.stringify(result.criteria),
      is_current: 1,
      created_at: nowIso,
    };
    await tx.insertInto('score_results').values(row).execute();
    await tx
      .updateTable('calls')
      .set({
        status: result.skipReason ? 'skipped' : 'scored',
        skip_reason: result.skipReason,
        // The dashboard reads the current score from the call row (migration 2026-12-02): it follows every
        // change of the current result, here, in the same transaction.
        current_score: result.score,
        updated_at: nowIso,
      })
      .where('id', '=', lease.callId)
      .execute();
    return row;
  });
}

/** The call's current result (criteria as JSON text), or undefined before its first scoring. */
export async function currentResult(db: Db, callId: string): Promise<ScoreResultRow | undefined> {
  return db
    .selectFrom('score_results')
    .selectAll()
    .where('call_id', '=', callId)
    .where('is_current', '=', 1)
    .executeTakeFirst();
}

/** Every result the call ever had, newest first; the current one has is_current = 1. */
export async function resultHistory(db: Db, callId: string): Promise<ScoreResultRow[]> {
  return db
    .selectFrom('score_results')
    .selectAll()
    .where('call_id', '=', callId)
    .orderBy('created_at', 'desc')
    .orderBy('is_current', 'desc')
    .execute();
}

/** What scoring reads about a call: its rep label, call type, chosen scorecard and turns (JSON text). */
export async function callForScoring(db: Db, callId: string) {
  return db
    .selectFrom('calls as c')
    .innerJoin('call_transcripts as t', 't.call_id', 'c.id')
    .select(['c.id', 'c.account_id', 'c.rep_speaker', 'c.call_type', 'c.scorecard_id', 't.turns'])
    .where('c.id', '=', callId)
    .executeTakeFirst();
}
