/**
 * Scoring results for tests that need a scored call without running a scorer: the result goes in through the
 * worker's own write, `recordResult`, so everything it keeps beside the result (the call's status and
 * `current_score`, the previous result no longer current) is exactly what production leaves. Calling it twice
 * for a call is a re-score.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { requeueCall, type JobLease } from '../../src/store/jobs.repo.js';
import { recordResult, type ScoreResultRow } from '../../src/store/results.repo.js';

export interface TestResult {
  /** 0..100; null for a skipped call. */
  score: number | null;
  /** Per-criterion results ([] by default). */
  criteria?: unknown[];
  /** Defaults to 'too_short' when `score` is null. */
  skipReason?: string | null;
  scorecardId?: string | null;
  scorecardVersion?: number | null;
  scorer?: string;
}

/**
 * A lease on a fresh job of this call, as a worker holds it after its claim: `requeueCall` supersedes any live
 * job (the unique live-job index allows one), then exactly that job is taken (a claim would pick by account
 * fairness, possibly another call's job).
 */
export async function leaseCall(db: Kysely<Database>, callId: string, now: Date): Promise<JobLease> {
  const jobId = await requeueCall(db, callId, 'test', now);
  if (!jobId) throw new Error(`no call ${callId}`);
  const leaseUntil = new Date(now.getTime() + 60_000).toISOString();
  const job = await db
    .updateTable('scoring_jobs')
    .set((eb) => ({
      status: 'running',
      lease_until: leaseUntil,
      fencing_token: eb('fencing_token', '+', 1),
      updated_at: now.toISOString(),
    }))
    .where('id', '=', jobId)
    .returning(['account_id', 'fencing_token', 'attempts'])
    .executeTakeFirstOrThrow();
  return {
    jobId,
    callId,
    accountId: job.account_id,
    fencingToken: job.fencing_token,
    attempts: job.attempts,
    leaseUntil,
  };
}

/** Records `result` as the call's current result through `recordResult` (the call becomes scored or skipped). */
export async function recordTestResult(
  db: Kysely<Database>,
  callId: string,
  result: TestResult,
  now: Date = new Date(),
): Promise<ScoreResultRow> {
  const lease = await leaseCall(db, callId, now);
  const row = await recordResult(
    db,
    lease,
    {
      scorecardId: result.scorecardId ?? null,
      scorecardVersion: result.scorecardVersion === undefined ? 1 : result.scorecardVersion,
      scorer: result.scorer ?? 'rules',
      score: result.score,
      skipReason:
        result.skipReason !== undefined ? result.skipReason : result.score === null ? 'too_short' : null,
      criteria: result.criteria ?? [],
    },
    now,
  );
  if (!row) throw new Error(`the result for ${callId} was fenced off`);
  return row;
}
