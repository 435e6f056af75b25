/**
 * Entry of the SQLite writer thread (sqlite-writer.ts): its own connection to the database file runs each list of
 * statements in one IMMEDIATE transaction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { serveThreadRpc } from '../thread-rpc.js';
import { afterStatement, type SqliteWriterData, type ThreadStatement } from './sqlite-writer.js';

const { file, synchronous, autocheckpointPages } = workerData as SqliteWriterData;
const sqlite = new SQLite(file);
sqlite.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('busy_timeout = 5000');
// The checkpointer thread copies the WAL back (db.ts); a commit here checkpoints only if it stalls. With
// SQLite's default (1,000 pages) every ~30th commit ran a 10–25 ms checkpoint: 528 → 802 calls/s at 40 KB.
sqlite.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);

const prepared = new Map<string, SQLite.Statement>();
function statement(sql: string): SQLite.Statement {
  let s = prepared.get(sql);
  if (!s) prepared.set(sql, (s = sqlite.prepare(sql)));
  return s;
}

/** Thrown to roll back when a `whenUnchanged: 'rollback'` statement changed no row. */
class Unchanged {
  constructor(readonly index: number) {}
}

const transaction = sqlite.transaction((statements: ThreadStatement[]) => {
  for (const [i, s] of statements.entries()) {
    const next = afterStatement(statement(s.sql).run(s.parameters).changes, s.whenUnchanged);
    if (next === 'stop') return i;
    if (next === 'undo') throw new Unchanged(i);
  }
  return -1;
});

serveThreadRpc<ThreadStatement[]>(parentPort!, (statements) => {
  try {
    return transaction.immediate(statements);
  } catch (error) {
    if (error instanceof Unchanged) return error.index;
    throw error;
  }
});
