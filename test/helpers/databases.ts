/**
 * The databases every storage test loops over (kysely's DIALECTS pattern). SQLite always runs;
 * PostgreSQL runs when TEST_DATABASE_URL is set (CI sets it) and is reported as skipped otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { createStore, migrate, type Dialect, type Store } from '../../src/store/db.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

export const DIALECTS: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * `describe.each(DIALECTS)` that also lists the PostgreSQL suite, as skipped, when TEST_DATABASE_URL is unset
 * (DESIGN 3: "reported as skipped"), so the run's summary counts what did not run. `%s` in the name is the dialect.
 */
export function describeEachDialect(name: string, suite: (dialect: Dialect) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const)
    describe.skipIf(!DIALECTS.includes(dialect))(name.replace('%s', dialect), () => suite(dialect));
}

if (!TEST_DATABASE_URL && !process.env.CALLSCORE_QUIET_SKIPS) {
  process.env.CALLSCORE_QUIET_SKIPS = '1';
  console.warn('PostgreSQL suites skipped: set TEST_DATABASE_URL=postgres://… to run them.');
}

/** A fresh PostgreSQL database name of this run (global-setup.ts drops the run's leftovers at the end). */
export function testDatabaseName(): string {
  return `callscore_test_${process.env.CALLSCORE_TEST_RUN ?? 'adhoc'}_${randomBytes(6).toString('hex')}`;
}

export interface TestDatabase {
  dialect: Dialect;
  /** DATABASE_URL for the app (undefined for SQLite) and DATA_DIR (always a fresh folder). */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Drops the database and removes the folder. */
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, empty database of the given dialect (migrations not yet applied). */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-test-'));
  if (dialect === 'sqlite') {
    return {
      dialect,
      databaseUrl: undefined,
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = testDatabaseName();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    dialect,
    databaseUrl: withDatabase(TEST_DATABASE_URL, name),
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A migrated store on a fresh database; close it and drop the database with `cleanup`. */
export async function createTestStore(
  dialect: Dialect,
  options: { apiThreads?: boolean } = {},
): Promise<Store & { cleanup(): Promise<void>; testDb: TestDatabase }> {
  const testDb = await createTestDatabase(dialect);
  const store = createStore({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, ...options });
  await migrate(store.db);
  return {
    ...store,
    testDb,
    cleanup: async () => {
      await store.close();
      await testDb.drop();
    },
  };
}
