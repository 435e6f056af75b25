/**
 * Step 13 of an ingest (DESIGN 1b): the call, its transcript, its scoring job and the recording attachment in one
 * short transaction. The unique keys decide races (`ON CONFLICT DO NOTHING`, never read-then-write); a recording
 * that another call took in the meantime undoes the whole write. On SQLite in the API process the compiled
 * statements run in the writer thread (sqlite-writer.ts), elsewhere in a Kysely transaction, with one meaning.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Store } from './db.js';
import type { CallTranscriptsTable, NewCall } from './schema.js';
import { insertCallQuery, insertTranscriptQuery } from './calls.repo.js';
import { scoringJobQueries } from './jobs.repo.js';
import { attachRecordingQuery } from './recordings.repo.js';
import { afterStatement, writeStatement, type WriteStatement } from './sqlite-writer.js';

export interface IngestWrite {
  call: NewCall & { id: string; account_id: string };
  transcript: Insertable<CallTranscriptsTable>;
  recordingId: string | null;
  now: string;
}

/** `inserted`; `taken` when a unique key already held a call; `recording_taken` when the recording was. */
export type IngestWriteOutcome = 'inserted' | 'taken' | 'recording_taken';

export async function storeIngestedCall(store: Store, write: IngestWrite): Promise<IngestWriteOutcome> {
  const { db } = store;
  const { call, recordingId, now } = write;
  const job = { id: randomUUID(), callId: call.id, accountId: call.account_id, at: now, reason: 'ingest' };
  // The call first (its conflict stops everything), the recording last (its miss undoes everything).
  const statements = [
    writeStatement(insertCallQuery(db, call), 'stop'),
    writeStatement(insertTranscriptQuery(db, write.transcript)),
    ...scoringJobQueries(db, job).map((query) => writeStatement(query)),
    ...(recordingId ? [writeStatement(attachRecordingQuery(db, recordingId, call.id), 'rollback')] : []),
  ];
  const unchanged = store.writer
    ? await store.writer.transaction(statements)
    : await runInKyselyTransaction(store, statements);
  if (unchanged === -1) return 'inserted';
  return unchanged === 0 ? 'taken' : 'recording_taken';
}

class Undo {
  constructor(readonly index: number) {}
}

/** What the writer thread does, in a Kysely transaction: -1 when all ran, else the index that stopped or undid. */
async function runInKyselyTransaction(store: Store, statements: WriteStatement[]): Promise<number> {
  try {
    return await store.db.transaction().execute(async (tx) => {
      for (const [i, s] of statements.entries()) {
        const { numAffectedRows } = await tx.executeQuery(s.query);
        const next = afterStatement(Number(numAffectedRows ?? 0), s.whenUnchanged);
        if (next === 'stop') return i;
        if (next === 'undo') throw new Undo(i);
      }
      return -1;
    });
  } catch (error) {
    if (error instanceof Undo) return error.index;
    throw error;
  }
}
