/**
 * The API's SQLite writes of an ingest, run by a second connection in a worker_thread. better-sqlite3 is
 * synchronous: on the event loop, storing a call (a 49 KB transcript is ~34 WAL pages) held every other request
 * for 0.4 ms at 40 KB and 3 ms at 1 MiB (docs/decisions.md §20). The queries are compiled by Kysely on the event
 * loop, so the SQL stays in the repositories; the thread only binds and runs it.
 */
import type { CompiledQuery } from 'kysely';
import { createThreadRpc, startModuleWorker, type ThreadRpc } from '../thread-rpc.js';

export interface WriteStatement {
  query: CompiledQuery;
  /** When the statement changes no row: `stop` commits what ran and ends, `rollback` undoes the transaction. */
  whenUnchanged?: 'stop' | 'rollback';
}

/** What the thread receives: the SQL and values only, not Kysely's query tree. */
export interface ThreadStatement {
  sql: string;
  parameters: readonly unknown[];
  whenUnchanged?: WriteStatement['whenUnchanged'];
}

export interface SqliteWriterData {
  file: string;
  synchronous: 'normal' | 'full';
  /** The API connection's fallback: the checkpointer thread keeps the WAL short. */
  autocheckpointPages: number;
}

export interface SqliteWriter {
  /** Runs the statements in one transaction: -1 when all ran, else the index that stopped or rolled back. */
  transaction(statements: WriteStatement[]): Promise<number>;
  stop(): Promise<void>;
}

export function createSqliteWriter(data: SqliteWriterData): SqliteWriter {
  const thread: ThreadRpc<ThreadStatement[], number> = createThreadRpc('sqlite writer', () =>
    startModuleWorker('./sqlite-writer-thread', import.meta.url, data),
  );
  return {
    transaction: (statements) =>
      thread.call(
        statements.map(({ query, whenUnchanged }) => ({
          sql: query.sql,
          parameters: query.parameters,
          whenUnchanged,
        })),
      ),
    stop: () => thread.stop(),
  };
}

/** What a transaction does after a statement that changed `changes` rows: go on, stop (commit), or undo. */
export function afterStatement(changes: number, whenUnchanged: WriteStatement['whenUnchanged']) {
  if (changes > 0 || !whenUnchanged) return 'next';
  return whenUnchanged === 'stop' ? 'stop' : 'undo';
}

export function writeStatement(
  query: CompiledQuery,
  whenUnchanged?: WriteStatement['whenUnchanged'],
): WriteStatement {
  return { query, whenUnchanged };
}
