/**
 * The database seam: the only module that knows whether SQLite or PostgreSQL is underneath.
 * Everything else receives a Kysely<Database> and, for the few SQL differences, `dialect`.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type Migration,
  type MigrationProvider,
  type SqliteDatabase,
} from 'kysely';
import type { Database } from './schema.js';
import { createSqliteWriter, type SqliteWriter } from './sqlite-writer.js';
import * as initial from './migrations/2026-11-23-initial.js';
import * as scoring from './migrations/2026-11-24-scoring.js';
import * as web from './migrations/2026-11-25-web.js';
import * as admin from './migrations/2026-11-26-admin.js';
import * as coaching from './migrations/2026-11-27-coaching.js';
import * as dashboard from './migrations/2026-11-28-dashboard.js';
import * as search from './migrations/2026-11-29-search.js';
import * as ingest from './migrations/2026-11-30-ingest.js';
import * as searchRows from './migrations/2026-12-01-search-rows.js';
import * as callScore from './migrations/2026-12-02-call-score.js';
import * as libraryOrder from './migrations/2026-12-03-library-order.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** SQLite in the API process: the ingest's writes run in a thread of their own (sqlite-writer.ts). */
  writer?: SqliteWriter;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres://… or undefined for the embedded SQLite file. */
  databaseUrl: string | undefined;
  /** Where the SQLite file lives. */
  dataDir: string;
  sqliteSynchronous?: 'normal' | 'full';
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * SQLite in the API process: copy the WAL into the database file from a thread of its own (see below), and
   * store ingested calls from another (sqlite-writer.ts).
   */
  apiThreads?: boolean;
}

// COUNT(*) and other int8 results arrive as strings from pg; our counts always fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'callscore.sqlite');
}

export function createStore(options: StoreOptions): Store {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // Fail fast when the database is down, so the API can answer 503 instead of hanging.
      connectionTimeoutMillis: 5_000,
    });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (options.databaseUrl) {
    throw new Error(
      `DATABASE_URL must start with postgres:// (got "${options.databaseUrl.split(':')[0]}:…")`,
    );
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(sqliteFile(options.dataDir));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.sqliteSynchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  // Another process (a separate worker) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000');
  const checkpointer = options.apiThreads ? startCheckpointer(sqlite) : null;
  const writer = options.apiThreads
    ? createSqliteWriter({
        file: sqlite.name,
        synchronous: options.sqliteSynchronous ?? 'normal',
        autocheckpointPages: FALLBACK_AUTOCHECKPOINT_PAGES,
      })
    : undefined;
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    writer,
    close: async () => {
      await writer?.stop();
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** Small, frequent copies: at 100 ms each copy was bigger and ingest p99 at half the peak 35–45 ms, at 25 ms 28–35. */
const CHECKPOINT_INTERVAL_MS = 25;
/** Far above what the checkpointer lets the WAL reach: only if it stalls does a commit checkpoint inline. */
const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

/**
 * A checkpoint (copy the WAL into the database file, then fsync) blocks its connection for 10–25 ms, and SQLite
 * runs it inside the commit that crosses 1,000 WAL pages: measured, a quarter of the ingest's database time and
 * its worst latencies. A second connection in a worker thread checkpoints every 25 ms instead (PASSIVE: it
 * never blocks the writer), so commits on the event loop only append to the WAL.
 */
function startCheckpointer(sqlite: SQLite.Database): { stop(): Promise<void> } {
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const db = new (require(workerData.driver))(workerData.file);
    db.pragma('busy_timeout = 5000');
    const timer = setInterval(() => {
      try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* the fallback still checkpoints */ }
    }, workerData.intervalMs);
    parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });`,
    {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: sqlite.name,
        intervalMs: CHECKPOINT_INTERVAL_MS,
      },
    },
  );
  // A failing checkpointer leaves the fallback above; it must not take the server down.
  worker.on('error', () => {});
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop: async () => {
      worker.ref(); // held until it has closed its connection, or the process could end first
      worker.postMessage('stop');
      await exited;
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running our small indexed queries, so prepared
 * statements are kept per SQL text (bounded, least recently used first out).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** Every migration, by name (applied in name order). */
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-23-initial': initial,
  '2026-11-24-scoring': scoring,
  '2026-11-25-web': web,
  '2026-11-26-admin': admin,
  '2026-11-27-coaching': coaching,
  '2026-11-28-dashboard': dashboard,
  '2026-11-29-search': search,
  '2026-11-30-ingest': ingest,
  '2026-12-01-search-rows': searchRows,
  '2026-12-02-call-score': callScore,
  '2026-12-03-library-order': libraryOrder,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * PostgreSQL: creates the database named by DATABASE_URL when the server answers that it does not exist (DESIGN 3:
 * every command that opens the database creates it), through the server's `postgres` maintenance database with the
 * same credentials. Any other connection failure is left to the first query, which explains it.
 */
export async function createPostgresDatabaseIfMissing(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name || name === 'postgres') return;
  const probe = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') return; // invalid_catalog_name: no such database
  } finally {
    await probe.end().catch(() => {});
  }
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === '42P04') return; // duplicate_database: another process created it meanwhile
    if (isDatabaseUnavailable(error)) throw error;
    throw new Error(
      `The database "${name}" named by DATABASE_URL does not exist and could not be created: ${e.message}`,
    );
  } finally {
    await admin.end().catch(() => {});
  }
}

/** Applies pending migrations; every command that opens the database calls it first. */
export async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error && isDatabaseUnavailable(error)) throw error; // keeps its code, so callers can explain it
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

export function nowIso(): string {
  return new Date().toISOString();
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '3D000', // invalid_catalog_name: the database was dropped or renamed under us
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
]);

/** True for errors that mean "the database cannot be reached right now" rather than a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  // Class 08 is PostgreSQL's connection exceptions; 55000 is also "not currently accepting connections".
  if (e.code?.startsWith('08')) return true;
  if (e.code === '55000' && /not currently accepting connections/i.test(e.message ?? '')) return true;
  return /timeout exceeded when trying to connect|Connection terminated|driver has already been destroyed|Cannot use a pool after calling end|max retries per request|Connection is closed/i.test(
    e.message ?? '',
  );
}
