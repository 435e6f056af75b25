import type { CompiledQuery, Insertable, Kysely, Transaction } from 'kysely';
import type { Database, RecordingsTable } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertRecording(db: Db, row: Insertable<RecordingsTable>): Promise<void> {
  await db.insertInto('recordings').values(row).execute();
}

export async function findRecording(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('recordings')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findRecordingById(db: Db, id: string) {
  return db.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markRecordingUploaded(db: Db, id: string, at: string): Promise<void> {
  await db
    .updateTable('recordings')
    .set({ status: 'uploaded', uploaded_at: at })
    .where('id', '=', id)
    .execute();
}

/** Attaches an uploaded recording to a call, once: false when another call already holds it. */
export async function attachRecording(db: Db, id: string, callId: string): Promise<boolean> {
  const result = await db.executeQuery(attachRecordingQuery(db, id, callId));
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** The conditional update of `attachRecording`, compiled (the SQLite writer thread runs it). */
export function attachRecordingQuery(db: Db, id: string, callId: string): CompiledQuery {
  return db
    .updateTable('recordings')
    .set({ call_id: callId })
    .where('id', '=', id)
    .where('call_id', 'is', null)
    .where('status', '=', 'uploaded')
    .compile();
}
