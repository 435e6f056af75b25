import { expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { MIGRATIONS } from '../../src/store/db.js';
import { describeEachDialect, createTestStore } from '../helpers/databases.js';
import { recordTestResult } from '../helpers/results.js';
import { addCall, at, seededStore } from './fixtures.js';

describeEachDialect('scoring migration on %s', (dialect) => {
  it('goes down to the initial schema and up again', async () => {
    const store = await createTestStore(dialect);
    try {
      const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => MIGRATIONS } });
      const tables = async () => (await store.db.introspection.getTables()).map((t) => t.name);
      expect(await tables()).toEqual(expect.arrayContaining(['score_results', 'scoring_fairness']));
      const down = await migrator.migrateTo('2026-11-23-initial');
      expect(down.error).toBeUndefined();
      expect(await tables()).not.toContain('score_results');
      const jobs = (await store.db.introspection.getTables()).find((t) => t.name === 'scoring_jobs')!;
      expect(jobs.columns.map((c) => c.name)).not.toContain('reason');
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      expect(await tables()).toEqual(expect.arrayContaining(['score_results', 'scoring_fairness']));
    } finally {
      await store.cleanup();
    }
  });
});

describeEachDialect('call score migration (2026-12-02) on %s', (dialect) => {
  it('adds calls.current_score and backfills it from the current results; down drops it', async () => {
    const store = await seededStore(dialect);
    try {
      const db = store.db;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
      const columns = async () =>
        (await db.introspection.getTables()).find((t) => t.name === 'calls')!.columns.map((c) => c.name);
      // Results as the worker writes them: scored, re-scored (the old result stays as history), skipped, scored
      // then skipped, and a call never scored.
      const scored = await addCall(store);
      const rescored = await addCall(store);
      const skipped = await addCall(store);
      const scoredThenSkipped = await addCall(store);
      const queued = await addCall(store);
      await recordTestResult(db, scored, { score: 72.5 }, at(1_000));
      await recordTestResult(db, rescored, { score: 30 }, at(1_000));
      await recordTestResult(db, rescored, { score: 65 }, at(2_000));
      await recordTestResult(db, skipped, { score: null }, at(1_000));
      await recordTestResult(db, scoredThenSkipped, { score: 90 }, at(1_000));
      await recordTestResult(db, scoredThenSkipped, { score: null, skipReason: 'no_scorecard' }, at(2_000));
      const expected = {
        [scored]: 72.5,
        [rescored]: 65,
        [skipped]: null,
        [scoredThenSkipped]: null,
        [queued]: null,
      };
      const currentScores = async () =>
        Object.fromEntries(
          (await db.selectFrom('calls').select(['id', 'current_score']).execute()).map((c) => [
            c.id,
            c.current_score,
          ]),
        );
      expect(await currentScores()).toEqual(expected);

      const down = await migrator.migrateTo('2026-12-01-search-rows');
      expect(down.error).toBeUndefined();
      expect(await columns()).not.toContain('current_score');
      // Without the column, the current results alone say what the scores are; the backfill must find them.
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      expect(up.results?.map((r) => r.migrationName)).toContain('2026-12-02-call-score');
      expect(await columns()).toContain('current_score');
      expect(await currentScores()).toEqual(expected);
    } finally {
      await store.cleanup();
    }
  });
});
