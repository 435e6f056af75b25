/**
 * Vitest global setup: names this run (every test database of the run starts with `callscore_test_<run>_`,
 * databases.ts) and, at the end, drops any database of the run that a failed start or an interrupted test left on
 * the PostgreSQL server. Another run's databases are never touched.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export function setup(): () => Promise<void> {
  const run = randomBytes(4).toString('hex');
  process.env.CALLSCORE_TEST_RUN = run; // inherited by the test forks, started after this
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`callscore_test_${run}_%`],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      if (rows.length) console.warn(`Dropped ${rows.length} test database(s) left by this run.`);
    } finally {
      await admin.end();
    }
  };
}
