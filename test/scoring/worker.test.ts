import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SCORECARDS } from '../helpers/workspace.js';
import { describeEachDialect } from '../helpers/databases.js';
import { claimNext, heartbeat, reapExpired } from '../../src/store/jobs.repo.js';
import { currentResult, resultHistory } from '../../src/store/results.repo.js';
import {
  addCall,
  at,
  callRow,
  clock,
  gatedScorer,
  jobRow,
  seededStore,
  shortTurns,
  T0,
  testWorker,
  type TestStore,
} from './fixtures.js';

describeEachDialect('scoring worker on %s', (dialect) => {
  let store: TestStore;
  beforeEach(async () => {
    store = await seededStore(dialect);
  });
  afterEach(async () => store?.cleanup());

  it('moves a call queued → scoring → scored and stores one current result with evidence', async () => {
    const id = await addCall(store);
    expect(await callRow(store, id)).toEqual({ status: 'queued', skip_reason: null });
    const gated = gatedScorer();
    const worker = testWorker(store, { scorer: gated.scorer });
    const run = worker.runOnce();
    await gated.entered;
    expect((await callRow(store, id)).status).toBe('scoring');
    expect((await jobRow(store, id)).status).toBe('running');
    gated.open();
    expect(await run).toMatchObject({ callId: id, outcome: 'scored' });
    expect(await callRow(store, id)).toEqual({ status: 'scored', skip_reason: null });
    expect((await jobRow(store, id)).status).toBe('done');
    const result = await currentResult(store.db, id);
    expect(result).toMatchObject({
      call_id: id,
      scorecard_id: SCORECARDS.discovery,
      scorecard_version: 1,
      scorer: 'rules',
      score: 100,
      skip_reason: null,
      is_current: 1,
    });
    const criteria = JSON.parse(result!.criteria);
    expect(criteria).toHaveLength(1);
    expect(criteria[0]).toMatchObject({ key: 'next_steps', score: 1 });
    expect(criteria[0].evidence[0].quote).toContain('next step');
    expect(await worker.runOnce()).toBeNull();
  });

  it('skips too_short, no_scorecard (archived, draft, none), empty_scorecard and all_criteria_na onto the call', async () => {
    const tooShort = await addCall(store, { turns: shortTurns() });
    const archived = await addCall(store);
    const draft = await addCall(store, { scorecardId: SCORECARDS.draft });
    const none = await addCall(store, { scorecardId: null });
    // A scorecard edited to no criteria, and one whose only criterion never applies: versions added after ingestion.
    const emptyCard = await addCall(store, { scorecardId: SCORECARDS.negotiation });
    await store.db
      .updateTable('scorecards')
      .set({ status: 'archived' })
      .where('id', '=', SCORECARDS.discovery)
      .execute();
    await store.db
      .insertInto('scorecard_versions')
      .values({
        scorecard_id: SCORECARDS.negotiation,
        version: 2,
        criteria: '[]',
        created_at: T0.toISOString(),
      })
      .execute();
    await store.db
      .updateTable('scorecards')
      .set({ current_version: 2 })
      .where('id', '=', SCORECARDS.negotiation)
      .execute();

    const worker = testWorker(store);
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await worker.runOnce());
    expect(await worker.runOnce()).toBeNull();
    expect(outcomes.every((o) => o?.outcome === 'skipped')).toBe(true);

    expect(await callRow(store, tooShort)).toEqual({ status: 'skipped', skip_reason: 'no_scorecard' });
    expect(await callRow(store, archived)).toEqual({ status: 'skipped', skip_reason: 'no_scorecard' });
    expect(await callRow(store, draft)).toEqual({ status: 'skipped', skip_reason: 'no_scorecard' });
    expect(await callRow(store, none)).toEqual({ status: 'skipped', skip_reason: 'no_scorecard' });
    expect(await callRow(store, emptyCard)).toEqual({ status: 'skipped', skip_reason: 'empty_scorecard' });
    expect(await currentResult(store.db, emptyCard)).toMatchObject({
      score: null,
      skip_reason: 'empty_scorecard',
      scorecard_version: 2,
      criteria: '[]',
    });
  });

  it('skips too_short and all_criteria_na with a published scorecard', async () => {
    const tooShort = await addCall(store, { turns: shortTurns() });
    const na = await addCall(store, { scorecardId: SCORECARDS.negotiation });
    const criteria = [
      {
        key: 'pricing',
        title: 'Handles pricing',
        applies_when: { customer_mentions_any: ['price'] },
        check: { type: 'phrases', any: ['discount'] },
      },
    ];
    await store.db
      .insertInto('scorecard_versions')
      .values({
        scorecard_id: SCORECARDS.negotiation,
        version: 2,
        criteria: JSON.stringify(criteria),
        created_at: T0.toISOString(),
      })
      .execute();
    await store.db
      .updateTable('scorecards')
      .set({ current_version: 2 })
      .where('id', '=', SCORECARDS.negotiation)
      .execute();
    const worker = testWorker(store);
    await worker.runOnce();
    await worker.runOnce();
    expect(await callRow(store, tooShort)).toEqual({ status: 'skipped', skip_reason: 'too_short' });
    expect(await callRow(store, na)).toEqual({ status: 'skipped', skip_reason: 'all_criteria_na' });
    // Why each criterion did not apply is kept with the result, for the call page.
    const stored = JSON.parse((await currentResult(store.db, na))!.criteria);
    expect(stored).toEqual([
      expect.objectContaining({
        key: 'pricing',
        na: true,
        score: null,
        rationale: expect.stringContaining('price'),
      }),
    ]);
    expect(JSON.parse((await currentResult(store.db, tooShort))!.criteria)).toEqual([]);
  });

  it('returns a job whose lease expired to queued, counting an attempt; the heartbeat keeps it', async () => {
    const id = await addCall(store);
    const lease = (await claimNext(store, { now: T0, leaseMs: 1_000 }))!;
    expect(lease).toMatchObject({ callId: id, attempts: 0, leaseUntil: at(1_000).toISOString() });
    // A heartbeat at 0.8 s extends the lease to 1.8 s: nothing expires at 1.5 s.
    expect(await heartbeat(store.db, lease, at(800), 1_000)).toBe(true);
    expect(await reapExpired(store.db, at(1_500))).toEqual({ requeued: 0, failed: 0 });
    expect((await callRow(store, id)).status).toBe('scoring');

    expect(await reapExpired(store.db, at(2_000))).toEqual({ requeued: 1, failed: 0 });
    const job = await jobRow(store, id);
    expect(job).toMatchObject({
      status: 'queued',
      attempts: 1,
      lease_until: null,
      last_error: 'lease expired',
    });
    expect((await callRow(store, id)).status).toBe('queued');
    expect(await heartbeat(store.db, lease, at(2_100), 1_000)).toBe(false);

    // The next worker picks it up and scores it.
    expect(await testWorker(store, { now: () => at(3_000) }).runOnce()).toMatchObject({
      callId: id,
      outcome: 'scored',
    });
    expect((await callRow(store, id)).status).toBe('scored');
  });

  it('marks the call failed when the lease expires for the third time', async () => {
    const id = await addCall(store);
    for (let i = 0; i < 3; i++) {
      expect(await claimNext(store, { now: at(i * 10_000), leaseMs: 1_000 })).not.toBeNull();
      await reapExpired(store.db, at(i * 10_000 + 5_000));
    }
    expect(await callRow(store, id)).toEqual({ status: 'failed', skip_reason: null });
    expect(await jobRow(store, id)).toMatchObject({ status: 'done', attempts: 3 });
    expect(await claimNext(store, { now: at(60_000), leaseMs: 1_000 })).toBeNull();
  });

  it('retries a scoring error after a backoff and fails the call at the third error', async () => {
    const id = await addCall(store);
    // Unreadable stored turns make scoring throw, for real.
    await store.db
      .updateTable('call_transcripts')
      .set({ turns: '{not json' })
      .where('call_id', '=', id)
      .execute();
    const c = clock();
    const worker = testWorker(store, { now: c.now, backoffMs: (n) => n * 10_000 });
    expect(await worker.runOnce()).toMatchObject({
      outcome: 'retry',
      error: expect.stringContaining('JSON'),
    });
    expect(await callRow(store, id)).toEqual({ status: 'queued', skip_reason: null });
    expect(await jobRow(store, id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      available_at: at(10_000).toISOString(),
    });
    expect(await worker.runOnce()).toBeNull(); // backing off
    c.set(10_000);
    expect(await worker.runOnce()).toMatchObject({ outcome: 'retry' });
    c.set(40_000);
    expect(await worker.runOnce()).toMatchObject({ outcome: 'failed' });
    expect(await callRow(store, id)).toEqual({ status: 'failed', skip_reason: null });
    expect(await jobRow(store, id)).toMatchObject({ status: 'done', attempts: 3 });
    expect(await resultHistory(store.db, id)).toEqual([]);
    c.set(1_000_000);
    expect(await worker.runOnce()).toBeNull();
  });

  it('fences off a worker whose lease was taken over: only the new owner writes', async () => {
    const id = await addCall(store);
    const slow = gatedScorer();
    const a = testWorker(store, { scorer: slow.scorer, leaseMs: 1_000, now: () => T0 });
    const runA = a.runOnce();
    await slow.entered;
    const b = testWorker(store, { leaseMs: 1_000, now: () => at(5_000) });
    expect(await b.runOnce()).toMatchObject({ callId: id, outcome: 'scored' });
    slow.open();
    expect(await runA).toMatchObject({ callId: id, outcome: 'fenced' });
    const history = await resultHistory(store.db, id);
    expect(history).toHaveLength(1);
    expect(history[0]!.is_current).toBe(1);
    expect(await callRow(store, id)).toEqual({ status: 'scored', skip_reason: null });
    expect(await jobRow(store, id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('re-scoring keeps history with exactly one current result', async () => {
    const { requeueCall } = await import('../../src/store/jobs.repo.js');
    const id = await addCall(store);
    const worker = testWorker(store);
    await worker.runOnce();
    const first = await currentResult(store.db, id);
    expect(first?.score).toBe(100);

    // The scorecard changes, and a manager re-runs the call.
    const criteria = [
      { key: 'next_steps', title: 'Agrees next steps', check: { type: 'phrases', any: ['next step'] } },
      { key: 'pricing', title: 'Talks pricing', check: { type: 'phrases', any: ['discount'] } },
    ];
    await store.db
      .insertInto('scorecard_versions')
      .values({
        scorecard_id: SCORECARDS.discovery,
        version: 2,
        criteria: JSON.stringify(criteria),
        created_at: T0.toISOString(),
      })
      .execute();
    await store.db
      .updateTable('scorecards')
      .set({ current_version: 2 })
      .where('id', '=', SCORECARDS.discovery)
      .execute();
    expect(await requeueCall(store.db, id, 'rerun', at(1_000))).toEqual(expect.any(String));
    expect(await callRow(store, id)).toEqual({ status: 'queued', skip_reason: null });
    expect(await testWorker(store, { now: () => at(2_000) }).runOnce()).toMatchObject({ outcome: 'scored' });

    const history = await resultHistory(store.db, id);
    expect(history.map((r) => [r.scorecard_version, r.score, r.is_current])).toEqual([
      [2, 50, 1],
      [1, 100, 0],
    ]);
    expect((await currentResult(store.db, id))?.id).toBe(history[0]!.id);
    // The database itself refuses a second current result.
    await expect(
      store.db
        .insertInto('score_results')
        .values({ ...history[1]!, id: crypto.randomUUID(), is_current: 1 })
        .execute(),
    ).rejects.toThrow();
    expect(await requeueCall(store.db, crypto.randomUUID(), 'rerun')).toBeNull();
  });

  it('a re-queue supersedes the job in flight: its worker cannot write, the new job scores', async () => {
    const { requeueCall, jobsForCall } = await import('../../src/store/jobs.repo.js');
    const id = await addCall(store);
    const slow = gatedScorer();
    const run = testWorker(store, { scorer: slow.scorer }).runOnce();
    await slow.entered;
    await requeueCall(store.db, id, 'reassign', at(1_000));
    expect((await callRow(store, id)).status).toBe('queued');
    slow.open();
    expect(await run).toMatchObject({ outcome: 'fenced' });
    expect(await testWorker(store, { now: () => at(2_000) }).runOnce()).toMatchObject({
      callId: id,
      outcome: 'scored',
    });
    const jobs = await jobsForCall(store.db, id);
    expect(jobs.map((j) => [j.status, j.reason])).toEqual(
      expect.arrayContaining([
        ['done', 'ingest'],
        ['done', 'reassign'],
      ]),
    );
    expect(await resultHistory(store.db, id)).toHaveLength(1);
  });

  it('stop() releases a job still in hand after the grace period, without counting an attempt', async () => {
    const id = await addCall(store);
    const slow = gatedScorer();
    const worker = testWorker(store, { scorer: slow.scorer, stopGraceMs: 0 });
    const run = worker.runOnce();
    await slow.entered;
    const before = await jobRow(store, id);
    await worker.stop();
    expect(await jobRow(store, id)).toMatchObject({ status: 'queued', attempts: 0, lease_until: null });
    expect((await jobRow(store, id)).fencing_token).toBeGreaterThan(before.fencing_token);
    expect((await callRow(store, id)).status).toBe('queued');
    slow.open();
    expect(await run).toMatchObject({ outcome: 'fenced' });
    expect(await resultHistory(store.db, id)).toEqual([]);
    expect(await worker.runOnce()).toBeNull(); // stopped
    expect(await testWorker(store).runOnce()).toMatchObject({ callId: id, outcome: 'scored' });
  });

  it('stop() finishes the job in hand when it completes within the grace period', async () => {
    const id = await addCall(store);
    const slow = gatedScorer();
    const worker = testWorker(store, { scorer: slow.scorer, stopGraceMs: 60_000 });
    const run = worker.runOnce();
    await slow.entered;
    const stopped = worker.stop();
    slow.open();
    await stopped;
    expect(await run).toMatchObject({ outcome: 'scored' });
    expect(await callRow(store, id)).toEqual({ status: 'scored', skip_reason: null });
  });

  it('start() yields to timers and messages between jobs, so stop() is heard with a backlog queued', async () => {
    // On SQLite every query resolves without I/O; a loop of awaits alone would starve timers, signals and the
    // thread's stop message until the whole backlog was scored.
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await addCall(store));
    const worker = testWorker(store, { pollMs: 10 });
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await worker.stop();
    const statuses = await Promise.all(ids.map(async (id) => (await callRow(store, id)).status));
    expect(statuses.filter((status) => status === 'scored').length).toBeLessThan(ids.length);
    expect(statuses.filter((status) => status === 'queued').length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 'scored' || status === 'queued')).toBe(true);
  });

  it('start() scores queued calls in the background until stop()', async () => {
    const ids = [await addCall(store), await addCall(store, { turns: shortTurns() })];
    const worker = testWorker(store, { pollMs: 10 });
    worker.start();
    await vi.waitFor(
      async () => {
        expect((await callRow(store, ids[0]!)).status).toBe('scored');
        expect((await callRow(store, ids[1]!)).status).toBe('skipped');
      },
      { timeout: 10_000, interval: 20 },
    );
    await worker.stop();
    const late = await addCall(store);
    expect(await worker.runOnce()).toBeNull();
    expect((await callRow(store, late)).status).toBe('queued');
  });
});
