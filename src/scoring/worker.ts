/**
 * The scoring worker: reap expired leases → claim (fair across accounts) → score with a heartbeat extending the
 * lease → fenced write of the result and the call's final status. A failure is retried after a short backoff and
 * gives the call up as `failed` at the third attempt. stop() finishes the job in hand within a grace period, or
 * releases it (its late result is then fenced off). Runs in a worker_thread of `serve` or as `callscore worker`.
 */
import type { Config } from '../config.js';
import type { Store } from '../store/db.js';
import {
  claimNext,
  failAttempt,
  heartbeat,
  MAX_ATTEMPTS,
  reapExpired,
  releaseJob,
  type JobLease,
} from '../store/jobs.repo.js';
import { recordResult } from '../store/results.repo.js';
import { indexCallForSearch } from '../store/search.repo.js';
import { processJob } from './process-job.js';
import type { Scorer } from './scorers/scorer.js';

type LogFn = (fields: Record<string, unknown>, message: string) => void;

/** pino-compatible. */
export interface WorkerLogger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export interface WorkerOptions {
  store: Store;
  scorer: Scorer;
  config: Pick<Config, 'skipMinRepTurns' | 'skipMinRepWords'>;
  logger?: WorkerLogger;
  /** How long a claim holds a job without a heartbeat (DESIGN: 5 minutes). */
  leaseMs?: number;
  /** Sleep between claims when the queue is empty. */
  pollMs?: number;
  /** How often the lease is extended while scoring; a third of the lease by default. */
  heartbeatMs?: number;
  /** stop() waits this long for the job in hand before releasing it. */
  stopGraceMs?: number;
  /** Delay before retry n (1-based) after scoring threw. */
  backoffMs?: (failedAttempts: number) => number;
  maxAttempts?: number;
  /** Clock for leases and timestamps (tests inject one). */
  now?: () => Date;
}

export type JobOutcomeKind = 'scored' | 'skipped' | 'retry' | 'failed' | 'fenced';

export interface JobOutcome {
  jobId: string;
  callId: string;
  outcome: JobOutcomeKind;
  skipReason?: string;
  error?: string;
}

export interface ScoringWorker {
  /** Runs the claim loop until stop(). */
  start(): void;
  /** Stops claiming; finishes the job in hand within the grace period or releases it. */
  stop(): Promise<void>;
  /** Claims and processes one job (null when none is ready). For tests and one-shot runs. */
  runOnce(): Promise<JobOutcome | null>;
}

export const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_BACKOFF = [5_000, 30_000];

const consoleLogger: WorkerLogger = {
  info: () => {},
  warn: (fields, message) => console.warn(message, fields),
  error: (fields, message) => console.error(message, fields),
};

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function createWorker(options: WorkerOptions): ScoringWorker {
  const { store, scorer } = options;
  const log = options.logger ?? consoleLogger;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  // An idle poll is one indexed query; 250 ms keeps a new call waiting at most a quarter second.
  const pollMs = options.pollMs ?? 250;
  const heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(leaseMs / 3));
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const backoffMs = options.backoffMs ?? ((n: number) => DEFAULT_BACKOFF[n - 1] ?? 60_000);
  const now = options.now ?? (() => new Date());

  let stopping = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  /** The job in hand and the promise that ends when its processing does. */
  let inHand: { lease: JobLease; done: Promise<unknown> } | null = null;

  async function process(lease: JobLease): Promise<JobOutcome> {
    const base = { jobId: lease.jobId, callId: lease.callId };
    let lost = false;
    const beat = setInterval(() => {
      heartbeat(store.db, lease, now(), leaseMs).then(
        (ok) => {
          if (!ok && !lost) {
            lost = true;
            log.warn({ job: lease.jobId }, 'scoring lease lost; the result will not be written');
          }
        },
        (error: unknown) => log.warn({ job: lease.jobId, err: errorText(error) }, 'heartbeat failed'),
      );
    }, heartbeatMs);
    beat.unref?.();
    try {
      let result;
      try {
        // Search indexing happens here rather than at ingestion, keeping its cost off the API's requests.
        await indexCallForSearch(store.db, store.dialect, lease.callId);
        result = await processJob(
          {
            db: store.db,
            scorer,
            minRepTurns: options.config.skipMinRepTurns,
            minRepWords: options.config.skipMinRepWords,
          },
          lease.callId,
        );
      } catch (error) {
        const text = errorText(error);
        const outcome = await failAttempt(store.db, lease, {
          now: now(),
          error: text,
          backoffMs: backoffMs(lease.attempts + 1),
          maxAttempts,
        });
        log.warn(
          { job: lease.jobId, call: lease.callId, attempt: lease.attempts + 1, outcome },
          `scoring failed: ${text}`,
        );
        return { ...base, outcome, error: text };
      }
      const row = await recordResult(store.db, lease, result, now());
      if (!row) return { ...base, outcome: 'fenced' };
      if (result.skipReason) return { ...base, outcome: 'skipped', skipReason: result.skipReason };
      return { ...base, outcome: 'scored' };
    } finally {
      clearInterval(beat);
    }
  }

  async function runOnce(): Promise<JobOutcome | null> {
    if (stopping) return null;
    await reapExpired(store.db, now(), maxAttempts);
    const lease = await claimNext(store, { now: now(), leaseMs });
    if (!lease) return null;
    if (stopping) {
      // stop() arrived while this claim was in flight: give the job straight back.
      await releaseJob(store.db, lease, now());
      return null;
    }
    const done = process(lease);
    inHand = { lease, done: done.catch(() => {}) };
    try {
      return await done;
    } finally {
      if (inHand?.lease === lease) inHand = null;
    }
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });
  }

  async function run(): Promise<void> {
    while (!stopping) {
      try {
        const outcome = await runOnce();
        if (outcome) {
          log.info({ ...outcome }, 'job processed');
          // SQLite's queries settle without I/O: without this turn of the event loop, timers (the heartbeat),
          // signals and the thread's stop message would wait for the whole backlog.
          await new Promise((resolve) => setImmediate(resolve));
        } else await sleep(pollMs);
      } catch (error) {
        // The database being away is not fatal: wait and try again.
        log.error({ err: errorText(error) }, 'scoring worker error');
        if (!stopping) await sleep(Math.max(pollMs, 1_000));
      }
    }
  }

  return {
    start() {
      if (loop) return;
      stopping = false;
      loop = run();
    },

    async stop() {
      stopping = true;
      wake?.();
      const held = inHand;
      if (held) {
        let timer: NodeJS.Timeout | undefined;
        const finished = await Promise.race([
          held.done.then(() => true),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), stopGraceMs);
          }),
        ]);
        clearTimeout(timer);
        if (!finished) {
          const released = await releaseJob(store.db, held.lease, now());
          log.info({ job: held.lease.jobId, released }, 'released the job in hand on stop');
        }
      }
      // The loop ends at its next check; when the job was released, do not wait for its scoring to return.
      if (loop && !held) await loop;
      loop = null;
    },

    runOnce,
  };
}
