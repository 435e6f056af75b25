import { afterEach, beforeEach, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/db.js';
import { claimNext, type JobLease } from '../../src/store/jobs.repo.js';
import { describeEachDialect } from '../helpers/databases.js';
import { addCall, at, owner, seededStore, T0, type TestStore } from './fixtures.js';
import { insertCallIfAbsent, insertTranscript } from '../../src/store/calls.repo.js';
import { enqueueScoring } from '../../src/store/jobs.repo.js';

/** A backlog of `n` queued calls for Acme, enqueued in bulk through the repositories, oldest first. */
async function backlog(store: Store, n: number, startMs: number): Promise<void> {
  const o = await owner(store, 'Acme');
  for (let start = 0; start < n; start += 250) {
    await store.db.transaction().execute(async (tx) => {
      for (let i = start; i < Math.min(n, start + 250); i++) {
        const id = crypto.randomUUID();
        const when = at(startMs + i).toISOString();
        await insertCallIfAbsent(tx, {
          id,
          account_id: o.accountId,
          team_id: o.teamId,
          rep_user_id: o.userId,
          ingest_rep_user_id: o.userId,
          provider: null,
          external_id: null,
          fingerprint: id,
          status: 'queued',
          skip_reason: null,
          call_type: 'discovery',
          scorecard_id: o.scorecardId,
          title: 'Backfill',
          rep_speaker: 'Bob Stone',
          speaker_source: 'rep_speaker',
          rep_source: 'rep_email',
          speaker_confidence: null,
          recording_id: null,
          api_key_id: null,
          occurred_at: when,
          created_at: when,
          updated_at: when,
        });
        await insertTranscript(tx, {
          call_id: id,
          turns: '[]',
          participants: null,
          metadata: null,
          speaker_signals: null,
        });
        await enqueueScoring(tx, id, o.accountId, when);
      }
    });
  }
}

describeEachDialect('claims on %s', (dialect) => {
  let store: TestStore;
  beforeEach(async () => {
    store = await seededStore(dialect);
  });
  afterEach(async () => store?.cleanup());

  it("serves another account's live call within two claims of one account's backlog", async () => {
    await backlog(store, 300, -600_000);
    const acme = (await owner(store, 'Acme')).accountId;
    // Acme's backfill is already being worked on…
    for (let i = 0; i < 3; i++)
      expect((await claimNext(store, { now: at(i), leaseMs: 60_000 }))?.accountId).toBe(acme);
    // …when Other's live call arrives, after every queued Acme job.
    const live = await addCall(store, { account: 'Other', enqueuedAt: at(10) });
    const next = [
      await claimNext(store, { now: at(20), leaseMs: 60_000 }),
      await claimNext(store, { now: at(21), leaseMs: 60_000 }),
    ];
    expect(next.map((l) => l?.callId)).toContain(live);
  });

  it('alternates between accounts that were never served, oldest job first', async () => {
    await backlog(store, 50, -600_000);
    const live = await addCall(store, { account: 'Other', enqueuedAt: at(-1_000) });
    const first = await claimNext(store, { now: T0, leaseMs: 60_000 });
    const second = await claimNext(store, { now: at(1), leaseMs: 60_000 });
    expect(first?.callId).not.toBe(live); // Acme's oldest job is older
    expect(second?.callId).toBe(live);
    // Then Acme again, since Other has nothing left.
    expect((await claimNext(store, { now: at(2), leaseMs: 60_000 }))?.accountId).toBe(first?.accountId);
  });

  it('never claims a job before its available_at', async () => {
    const id = await addCall(store, { enqueuedAt: at(5_000) });
    expect(await claimNext(store, { now: T0, leaseMs: 1_000 })).toBeNull();
    expect((await claimNext(store, { now: at(5_000), leaseMs: 1_000 }))?.callId).toBe(id);
  });

  it('concurrent claims (two pools on PostgreSQL) never take the same job', async () => {
    await backlog(store, 60, -600_000);
    // PostgreSQL: a second pool on the same database. SQLite: claims share the one connection of the process (a
    // second connection in the same thread would wait for the lock synchronously; separate processes do not).
    const other: Store =
      dialect === 'postgres'
        ? createStore({ databaseUrl: store.testDb.databaseUrl, dataDir: store.testDb.dataDir })
        : { ...store, close: async () => {} };
    try {
      const claimed: JobLease[] = [];
      const drain = async (s: Store) => {
        for (;;) {
          const lease = await claimNext(s, { now: T0, leaseMs: 60_000 });
          if (!lease) return;
          claimed.push(lease);
        }
      };
      await Promise.all([drain(store), drain(other), drain(store), drain(other)]);
      const ids = claimed.map((l) => l.jobId);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
      const running = await store.db
        .selectFrom('scoring_jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'running')
        .executeTakeFirstOrThrow();
      expect(Number(running.n)).toBe(60);
      expect(claimed.every((l) => l.fencingToken === 1)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
