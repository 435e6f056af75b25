import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, createTestStore } from './helpers/databases.js';
import { migrate } from '../src/store/db.js';

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  it('creates every table and is idempotent', async () => {
    const store = await createTestStore(dialect);
    try {
      await migrate(store.db); // second run applies nothing and does not fail
      const tables = await store.db.introspection.getTables();
      const names = tables.map((t) => t.name).sort();
      expect(names).toEqual(
        expect.arrayContaining([
          'accounts',
          'calls',
          'call_transcripts',
          'scoring_jobs',
          'recordings',
          'api_keys',
        ]),
      );
      const { rows } = await sql<{ n: number }>`select count(*) as n from calls`.execute(store.db);
      expect(Number(rows[0]?.n)).toBe(0);
    } finally {
      await store.cleanup();
    }
  });
});
