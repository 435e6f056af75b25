import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A user of the account by email (case-insensitive: emails are stored lower-cased). */
export async function findUserByEmail(db: Kysely<Database>, accountId: string, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The teams (not deleted) a user belongs to. */
export async function activeTeamIdsOfUser(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select('t.id')
    .where('m.user_id', '=', userId)
    .where('t.deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}
