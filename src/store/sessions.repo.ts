/** Web sign-in sessions: rows keyed by the SHA-256 of the cookie token (the token itself is never stored). */
import type { Kysely } from 'kysely';
import type { Database, SessionsTable } from './schema.js';
import type { Insertable } from 'kysely';

export async function insertSession(db: Kysely<Database>, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/**
 * The live session with its user, or undefined when unknown, expired or the user is no longer active.
 * Deactivating a user therefore signs them out everywhere on their next request.
 */
export async function findLiveSession(db: Kysely<Database>, id: string, now: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.csrf_token',
      's.expires_at',
      's.absolute_expires_at',
      's.last_seen_at',
      'u.id as user_id',
      'u.account_id',
      'u.email',
      'u.name',
      'u.role',
    ])
    .where('s.id', '=', id)
    .where('s.expires_at', '>', now)
    .where('s.absolute_expires_at', '>', now)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
}

export async function touchSession(
  db: Kysely<Database>,
  id: string,
  lastSeenAt: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Housekeeping: expired rows are useless; called opportunistically at sign-in. */
export async function deleteExpiredSessions(db: Kysely<Database>, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

/** Everyone with this email who could sign in (emails are unique per account, not globally). */
export async function findSignInCandidates(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'password_hash', 'status', 'created_at'])
    .where('email', '=', email.toLowerCase())
    .where('password_hash', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** First sign-in activates a pending user; every sign-in records its time. */
export async function recordSignIn(db: Kysely<Database>, userId: string, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      last_sign_in_at: now,
      status: eb.case().when('status', '=', 'pending').then('active').else(eb.ref('status')).end(),
    }))
    .where('id', '=', userId)
    .execute();
}
