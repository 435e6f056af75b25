import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { MIGRATIONS } from '../../src/store/db.js';
import { DIALECTS, createTestStore } from '../helpers/databases.js';

describe.each(DIALECTS)('scoring migration on %s', (dialect) => {
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
