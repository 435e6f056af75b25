import type { Kysely, Transaction } from 'kysely';
import type { CallTranscriptsTable, Database, NewCall } from './schema.js';
import type { Insertable } from 'kysely';
import { hotQuery } from './hot-query.js';

type Db = Kysely<Database> | Transaction<Database>;

const insertCall = hotQuery((db, call: NewCall) =>
  db
    .insertInto('calls')
    .values(call)
    .onConflict((oc) => oc.doNothing()),
);

/**
 * Inserts the call unless one of its unique keys (external id, or same transcript for the same rep) is taken.
 * Returns whether this insert won; the loser re-reads the winner. Never a read-then-write race.
 */
export async function insertCallIfAbsent(db: Db, call: NewCall): Promise<boolean> {
  const result = await insertCall(db, call);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** The insert of `insertCallIfAbsent`, compiled: it changes no row when a unique key is taken. */
export const insertCallQuery = (db: Db, call: NewCall) => insertCall.compile(db, call);

const insertTranscriptRow = hotQuery((db, row: Insertable<CallTranscriptsTable>) =>
  db.insertInto('call_transcripts').values(row),
);

export async function insertTranscript(db: Db, row: Insertable<CallTranscriptsTable>): Promise<void> {
  await insertTranscriptRow(db, row);
}

export const insertTranscriptQuery = (db: Db, row: Insertable<CallTranscriptsTable>) =>
  insertTranscriptRow.compile(db, row);

const callByExternalId = hotQuery((db, p: { accountId: string; provider: string; externalId: string }) =>
  db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('provider', '=', p.provider)
    .where('external_id', '=', p.externalId),
);

export async function findCallByExternalId(db: Db, accountId: string, provider: string, externalId: string) {
  return (await callByExternalId(db, { accountId, provider, externalId })).rows[0];
}

const callByFingerprint = hotQuery((db, p: { accountId: string; repUserId: string; fingerprint: string }) =>
  db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('ingest_rep_user_id', '=', p.repUserId)
    .where('fingerprint', '=', p.fingerprint),
);

export async function findCallByFingerprint(
  db: Db,
  accountId: string,
  repUserId: string,
  fingerprint: string,
) {
  return (await callByFingerprint(db, { accountId, repUserId, fingerprint })).rows[0];
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
