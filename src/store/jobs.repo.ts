/**
 * The scoring queue: a narrow `scoring_jobs` table beside `calls`. A claim takes a lease and a new fencing token;
 * every later write by the worker (heartbeat, result, failure, release) is conditional on that token, so a worker
 * whose lease was taken over writes nothing. Call status follows the job: queued → scoring → scored | skipped | failed.
 *
 * Attempts count finished attempts that did not succeed (scoring threw, or the lease expired); a deliberate
 * release on shutdown is not an attempt. The job is given up, and the call marked failed, at MAX_ATTEMPTS.
 */
import {
  sql,
  type CompiledQuery,
  type Kysely,
  type Transaction,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Dialect } from './db.js';
import type { Database, ScoringJob } from './schema.js';
import { hotQuery } from './hot-query.js';

type Db = Kysely<Database> | Transaction<Database>;

export const MAX_ATTEMPTS = 3;

/** What a worker holds while it scores: the job, its call and the fencing token of its claim. */
export interface JobLease {
  jobId: string;
  callId: string;
  accountId: string;
  fencingToken: number;
  /** Unsuccessful attempts before this one. */
  attempts: number;
  leaseUntil: string;
}

const insertJob = hotQuery(
  (db, p: { id: string; callId: string; accountId: string; at: string; reason: string }) =>
    db.insertInto('scoring_jobs').values({
      id: p.id,
      call_id: p.callId,
      account_id: p.accountId,
      status: 'queued',
      lease_until: null,
      fencing_token: 0,
      attempts: 0,
      available_at: p.at,
      last_error: null,
      created_at: p.at,
      updated_at: p.at,
      reason: p.reason,
    }),
);

// The claim query walks accounts through this table; a new account starts as "never served" ('').
const insertFairness = hotQuery((db, p: { accountId: string }) =>
  db
    .insertInto('scoring_fairness')
    .values({ account_id: p.accountId, last_claimed_at: '' })
    .onConflict((oc) => oc.column('account_id').doNothing()),
);

/** Queues scoring for a call; written in the same transaction as the call. */
export async function enqueueScoring(
  db: Db,
  callId: string,
  accountId: string,
  at: string,
  reason = 'ingest',
): Promise<string> {
  const id = randomUUID();
  for (const query of scoringJobQueries(db, { id, callId, accountId, at, reason }))
    await db.executeQuery(query);
  return id;
}

/** The two inserts of `enqueueScoring`, compiled (the SQLite writer thread runs them). */
export function scoringJobQueries(
  db: Db,
  p: { id: string; callId: string; accountId: string; at: string; reason: string },
): CompiledQuery[] {
  return [insertJob.compile(db, p), insertFairness.compile(db, { accountId: p.accountId })];
}

function addMs(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString();
}

function toLease(job: ScoringJob): JobLease {
  return {
    jobId: job.id,
    callId: job.call_id,
    accountId: job.account_id,
    fencingToken: job.fencing_token,
    attempts: job.attempts,
    leaseUntil: job.lease_until!,
  };
}

/**
 * Accounts with a ready job, the one served longest ago first (then the oldest ready job). One index seek per
 * account on (account_id, status, available_at): cheap however long one account's backlog is.
 */
async function readyAccounts(db: Kysely<Database>, nowIso: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('scoring_fairness as f')
        .select((eb2) => [
          'f.account_id',
          'f.last_claimed_at',
          eb2
            .selectFrom('scoring_jobs as j')
            .select((eb3) => eb3.fn.min('j.available_at').as('m'))
            .whereRef('j.account_id', '=', 'f.account_id')
            .where('j.status', '=', 'queued')
            .where('j.available_at', '<=', nowIso)
            .as('next_at'),
        ])
        .as('c'),
    )
    .select('c.account_id')
    .where('c.next_at', 'is not', null)
    .orderBy('c.last_claimed_at')
    .orderBy('c.next_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.account_id);
}

/**
 * Claims the next job fairly across accounts: the oldest ready job of the account whose last claim is oldest.
 * SQLite: a conditional UPDATE (the database has one writer). PostgreSQL: `FOR UPDATE SKIP LOCKED` in a short
 * transaction, so concurrent workers never wait for, nor take, the same job. The call moves to `scoring`.
 */
export async function claimNext(
  store: { db: Kysely<Database>; dialect: Dialect },
  options: { now: Date; leaseMs: number },
): Promise<JobLease | null> {
  const nowIso = options.now.toISOString();
  const leaseUntil = addMs(options.now, options.leaseMs);
  // Several accounts, in case other workers hold (PostgreSQL) or just took the first one's ready jobs.
  for (const accountId of await readyAccounts(store.db, nowIso, 16)) {
    const claimed = await store.db.transaction().execute(async (tx) => {
      let job: ScoringJob | undefined;
      const set = {
        status: 'running',
        lease_until: leaseUntil,
        fencing_token: sql<number>`fencing_token + 1`,
        updated_at: nowIso,
      };
      if (store.dialect === 'postgres') {
        const picked = await tx
          .selectFrom('scoring_jobs')
          .select('id')
          .where('account_id', '=', accountId)
          .where('status', '=', 'queued')
          .where('available_at', '<=', nowIso)
          .orderBy('available_at')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!picked) return null;
        job = await tx
          .updateTable('scoring_jobs')
          .set(set)
          .where('id', '=', picked.id)
          .returningAll()
          .executeTakeFirst();
      } else {
        job = await tx
          .updateTable('scoring_jobs')
          .set(set)
          .where('status', '=', 'queued')
          .where('id', '=', (eb) =>
            eb
              .selectFrom('scoring_jobs')
              .select('id')
              .where('account_id', '=', accountId)
              .where('status', '=', 'queued')
              .where('available_at', '<=', nowIso)
              .orderBy('available_at')
              .limit(1),
          )
          .returningAll()
          .executeTakeFirst();
      }
      if (!job) return null;
      await tx
        .updateTable('calls')
        .set({ status: 'scoring', skip_reason: null, updated_at: nowIso })
        .where('id', '=', job.call_id)
        .execute();
      await tx
        .insertInto('scoring_fairness')
        .values({ account_id: accountId, last_claimed_at: nowIso })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ last_claimed_at: nowIso }))
        .execute();
      return job;
    });
    if (claimed) return toLease(claimed);
  }
  return null;
}

/** Extends the lease while the worker is still the owner; false once it was taken over or released. */
export async function heartbeat(db: Db, lease: JobLease, now: Date, leaseMs: number): Promise<boolean> {
  const leaseUntil = addMs(now, leaseMs);
  const result = await fenced(db.updateTable('scoring_jobs'), lease)
    .set({ lease_until: leaseUntil, updated_at: now.toISOString() })
    .executeTakeFirst();
  const ok = Number(result.numUpdatedRows) > 0;
  if (ok) lease.leaseUntil = leaseUntil;
  return ok;
}

type JobUpdate = UpdateQueryBuilder<Database, 'scoring_jobs', 'scoring_jobs', UpdateResult>;

/** Narrows an update to the job this lease still holds: a worker whose lease was taken over updates nothing. */
function fenced(query: JobUpdate, lease: JobLease): JobUpdate {
  return query
    .where('id', '=', lease.jobId)
    .where('fencing_token', '=', lease.fencingToken)
    .where('status', '=', 'running');
}

/**
 * Marks the job done if the lease is still the caller's. Run inside the result transaction: when it returns
 * false, the caller must write nothing else.
 */
export async function finishJob(tx: Db, lease: JobLease, now: Date): Promise<boolean> {
  const result = await fenced(tx.updateTable('scoring_jobs'), lease)
    .set({ status: 'done', lease_until: null, last_error: null, updated_at: now.toISOString() })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type AttemptOutcome = 'retry' | 'failed' | 'fenced';

/**
 * Records a failed attempt: back to `queued` after `backoffMs`, or given up (call `failed`) at MAX_ATTEMPTS.
 * 'fenced' when the lease was no longer the caller's (nothing written).
 */
export async function failAttempt(
  db: Kysely<Database>,
  lease: JobLease,
  options: { now: Date; error: string; backoffMs: number; maxAttempts?: number },
): Promise<AttemptOutcome> {
  const attempts = lease.attempts + 1;
  const giveUp = attempts >= (options.maxAttempts ?? MAX_ATTEMPTS);
  const nowIso = options.now.toISOString();
  return db.transaction().execute(async (tx) => {
    const result = await fenced(tx.updateTable('scoring_jobs'), lease)
      .set({
        status: giveUp ? 'done' : 'queued',
        attempts,
        lease_until: null,
        available_at: giveUp ? nowIso : addMs(options.now, options.backoffMs),
        last_error: options.error.slice(0, 2000),
        fencing_token: sql<number>`fencing_token + 1`,
        updated_at: nowIso,
      })
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return 'fenced';
    await tx
      .updateTable('calls')
      .set({ status: giveUp ? 'failed' : 'queued', skip_reason: null, updated_at: nowIso })
      .where('id', '=', lease.callId)
      .execute();
    return giveUp ? 'failed' : 'retry';
  });
}

/** Gives a job back without counting an attempt (graceful stop). Its late result, if any, is fenced off. */
export async function releaseJob(db: Kysely<Database>, lease: JobLease, now: Date): Promise<boolean> {
  const nowIso = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const result = await fenced(tx.updateTable('scoring_jobs'), lease)
      .set({
        status: 'queued',
        lease_until: null,
        available_at: nowIso,
        fencing_token: sql<number>`fencing_token + 1`,
        updated_at: nowIso,
      })
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await tx
      .updateTable('calls')
      .set({ status: 'queued', updated_at: nowIso })
      .where('id', '=', lease.callId)
      .execute();
    return true;
  });
}

/**
 * Returns jobs whose lease ended to `queued`, counting the attempt; at MAX_ATTEMPTS the job is given up and the
 * call marked failed. One conditional UPDATE: two workers reaping at once never count an expiry twice.
 */
export async function reapExpired(
  db: Kysely<Database>,
  now: Date,
  maxAttempts = MAX_ATTEMPTS,
): Promise<{ requeued: number; failed: number }> {
  const nowIso = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .updateTable('scoring_jobs')
      .set({
        status: sql<string>`case when attempts + 1 >= ${maxAttempts} then 'done' else 'queued' end`,
        attempts: sql<number>`attempts + 1`,
        lease_until: null,
        available_at: nowIso,
        fencing_token: sql<number>`fencing_token + 1`,
        last_error: 'lease expired',
        updated_at: nowIso,
      })
      .where('status', '=', 'running')
      .where('lease_until', '<', nowIso)
      .returning(['call_id', 'status'])
      .execute();
    const failed = rows.filter((r) => r.status === 'done').map((r) => r.call_id);
    const requeued = rows.filter((r) => r.status === 'queued').map((r) => r.call_id);
    if (failed.length) {
      await tx
        .updateTable('calls')
        .set({ status: 'failed', updated_at: nowIso })
        .where('id', 'in', failed)
        .execute();
    }
    if (requeued.length) {
      await tx
        .updateTable('calls')
        .set({ status: 'queued', updated_at: nowIso })
        .where('id', 'in', requeued)
        .execute();
    }
    return { requeued: requeued.length, failed: failed.length };
  });
}

/**
 * Re-queues a call (a manager's re-run of a failed call, a reassignment, a corrected rep speaker): in one
 * transaction the live job, if any, is superseded (its worker is fenced off), the current result stops being
 * current, the call moves to `queued` and a new job is enqueued. Returns the new job id, or null for an unknown call.
 */
export async function requeueCall(
  db: Kysely<Database>,
  callId: string,
  reason: string,
  now: Date = new Date(),
): Promise<string | null> {
  const nowIso = now.toISOString();
  return db.transaction().execute(async (tx) => {
    // A write first: on SQLite the transaction then holds the write lock from its start (a read that later
    // writes could fail with SQLITE_BUSY when a worker wrote in between).
    await tx
      .updateTable('scoring_jobs')
      .set({
        status: 'done',
        lease_until: null,
        fencing_token: sql<number>`fencing_token + 1`,
        last_error: `superseded: ${reason}`,
        updated_at: nowIso,
      })
      .where('call_id', '=', callId)
      .where('status', '<>', 'done')
      .execute();
    const call = await tx
      .selectFrom('calls')
      .select(['id', 'account_id'])
      .where('id', '=', callId)
      .executeTakeFirst();
    if (!call) return null;
    // The old result stops being current: it was for another rep, speaker or scorecard, and a queued or failed
    // call shows and counts no score (its history keeps it).
    await tx
      .updateTable('score_results')
      .set({ is_current: 0 })
      .where('call_id', '=', callId)
      .where('is_current', '=', 1)
      .execute();
    await tx
      .updateTable('calls')
      .set({ status: 'queued', skip_reason: null, current_score: null, updated_at: nowIso })
      .where('id', '=', callId)
      .execute();
    return enqueueScoring(tx, callId, call.account_id, nowIso, reason);
  });
}

/** The call's jobs, oldest first (operations and tests). */
export async function jobsForCall(db: Db, callId: string): Promise<ScoringJob[]> {
  return db
    .selectFrom('scoring_jobs')
    .selectAll()
    .where('call_id', '=', callId)
    .orderBy('created_at')
    .execute();
}
