/**
 * `calls.current_score` (migration 2026-12-02), which the dashboard sums instead of joining score_results: the
 * scoring worker keeps it equal to the current result's score through first scoring, re-scores and skips, a re-queue
 * clears both, and a worker fenced off writes nothing to it.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { requeueCall } from '../../src/store/jobs.repo.js';
import { currentResult, resultHistory } from '../../src/store/results.repo.js';
import { describeEachDialect } from '../helpers/databases.js';
import { SCORECARDS } from '../helpers/workspace.js';
import { addCall, at, gatedScorer, seededStore, T0, testWorker, type TestStore } from './fixtures.js';

describeEachDialect('calls.current_score on %s', (dialect) => {
  let store: TestStore;
  beforeEach(async () => {
    store = await seededStore(dialect);
  });
  afterEach(async () => store?.cleanup());

  async function currentScore(id: string): Promise<number | null> {
    const row = await store.db
      .selectFrom('calls')
      .select('current_score')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.current_score;
  }

  /** The column and the current result agree. */
  async function expectInStep(id: string, score: number | null): Promise<void> {
    expect(await currentScore(id)).toBe(score);
    expect((await currentResult(store.db, id))?.score ?? null).toBe(score);
  }

  async function publishVersion(version: number, criteria: unknown[]): Promise<void> {
    await store.db
      .insertInto('scorecard_versions')
      .values({
        scorecard_id: SCORECARDS.discovery,
        version,
        criteria: JSON.stringify(criteria),
        created_at: T0.toISOString(),
      })
      .execute();
    await store.db
      .updateTable('scorecards')
      .set({ current_version: version })
      .where('id', '=', SCORECARDS.discovery)
      .execute();
  }

  it('follows re-scoring: the new current result replaces the old score, a skip clears it', async () => {
    const id = await addCall(store);
    const other = await addCall(store);
    expect(await currentScore(id)).toBeNull();
    const worker = testWorker(store);
    await worker.runOnce();
    await worker.runOnce();
    await expectInStep(id, 100);
    await expectInStep(other, 100);

    // The scorecard gains a criterion the call misses, and a manager re-runs the call.
    await publishVersion(2, [
      { key: 'next_steps', title: 'Agrees next steps', check: { type: 'phrases', any: ['next step'] } },
      { key: 'pricing', title: 'Talks pricing', check: { type: 'phrases', any: ['discount'] } },
    ]);
    await requeueCall(store.db, id, 'rerun', at(1_000));
    // Queued again, the call has no current result (its history keeps the old one) until the new one is written.
    await expectInStep(id, null);
    expect((await resultHistory(store.db, id)).map((r) => [r.score, r.is_current])).toEqual([[100, 0]]);
    expect(await testWorker(store, { now: () => at(2_000) }).runOnce()).toMatchObject({
      callId: id,
      outcome: 'scored',
    });
    await expectInStep(id, 50);
    expect((await resultHistory(store.db, id)).map((r) => [r.score, r.is_current])).toEqual([
      [50, 1],
      [100, 0],
    ]);
    await expectInStep(other, 100); // untouched

    // Re-scored once more, now skipped: the call has no current score.
    await store.db
      .updateTable('scorecards')
      .set({ status: 'archived' })
      .where('id', '=', SCORECARDS.discovery)
      .execute();
    await requeueCall(store.db, id, 'rerun', at(3_000));
    expect(await testWorker(store, { now: () => at(4_000) }).runOnce()).toMatchObject({ outcome: 'skipped' });
    await expectInStep(id, null);
    expect(await resultHistory(store.db, id)).toHaveLength(3);
  });

  it('is not written by a worker whose lease was taken over', async () => {
    const id = await addCall(store);
    const slow = gatedScorer();
    const a = testWorker(store, { scorer: slow.scorer, leaseMs: 1_000, now: () => T0 });
    const runA = a.runOnce();
    await slow.entered;
    // Meanwhile the scorecard changes and another worker takes over the expired lease.
    await publishVersion(2, [
      { key: 'next_steps', title: 'Agrees next steps', check: { type: 'phrases', any: ['next step'] } },
      { key: 'pricing', title: 'Talks pricing', check: { type: 'phrases', any: ['discount'] } },
    ]);
    expect(await testWorker(store, { leaseMs: 1_000, now: () => at(5_000) }).runOnce()).toMatchObject({
      outcome: 'scored',
    });
    await expectInStep(id, 50);
    slow.open();
    expect(await runA).toMatchObject({ outcome: 'fenced' });
    await expectInStep(id, 50);
  });
});
