import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { hotQuery } from './hot-query.js';

const userByEmail = hotQuery((db, p: { accountId: string; email: string }) =>
  db.selectFrom('users').selectAll().where('account_id', '=', p.accountId).where('email', '=', p.email),
);

/** A user of the account by email (case-insensitive: emails are stored lower-cased). */
export async function findUserByEmail(db: Kysely<Database>, accountId: string, email: string) {
  return (await userByEmail(db, { accountId, email: email.toLowerCase() })).rows[0];
}

export async function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

const activeTeamsOfUser = hotQuery((db, p: { userId: string }) =>
  db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select('t.id')
    .where('m.user_id', '=', p.userId)
    .where('t.deleted_at', 'is', null),
);

/** The teams (not deleted) a user belongs to. */
export async function activeTeamIdsOfUser(db: Kysely<Database>, userId: string): Promise<string[]> {
  return (await activeTeamsOfUser(db, { userId })).rows.map((r) => r.id);
}
