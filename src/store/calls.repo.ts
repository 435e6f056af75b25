import type { Kysely, Transaction } from 'kysely';
import type { CallTranscriptsTable, Database, NewCall } from './schema.js';
import type { Insertable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Inserts the call unless one of its unique keys (external id, or same transcript for the same rep) is taken.
 * Returns whether this insert won; the loser re-reads the winner. Never a read-then-write race.
 */
export async function insertCallIfAbsent(db: Db, call: NewCall): Promise<boolean> {
  const result = await db
    .insertInto('calls')
    .values(call)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function insertTranscript(db: Db, row: Insertable<CallTranscriptsTable>): Promise<void> {
  await db.insertInto('call_transcripts').values(row).execute();
}

export async function findCallByExternalId(db: Db, accountId: string, provider: string, externalId: string) {
  return db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('provider', '=', provider)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function findCallByFingerprint(
  db: Db,
  accountId: string,
  repUserId: string,
  fingerprint: string,
) {
  return db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('ingest_rep_user_id', '=', repUserId)
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
}

/** A call of the account with its owner's email, or undefined (another account's id is unknown too). */
export async function findCallForAccount(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('calls as c')
    .innerJoin('users as u', 'u.id', 'c.rep_user_id')
    .selectAll('c')
    .select('u.email as rep_email')
    .where('c.account_id', '=', accountId)
    .where('c.id', '=', id)
    .executeTakeFirst();
}
