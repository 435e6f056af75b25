import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, describeEachDialect, createTestStore, testDatabaseName } from './helpers/databases.js';
import { migrate } from '../src/store/db.js';
import os from 'node:os';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/container.js';

describeEachDialect('migrations on %s', (dialect) => {
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

describe.skipIf(!DIALECTS.includes('postgres'))('a PostgreSQL database that does not exist yet', () => {
  it('is created and migrated by the first command that opens it, and found by the next', async () => {
    const name = testDatabaseName();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const config = loadConfig({ DATABASE_URL: url.toString(), DATA_DIR: os.tmpdir() });
    try {
      for (let run = 0; run < 2; run++) {
        const store = await openStore(config);
        try {
          const { rows } = await sql<{ n: number }>`select count(*) as n from accounts`.execute(store.db);
          expect(Number(rows[0]?.n)).toBe(0);
        } finally {
          await store.close();
        }
      }
    } finally {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
