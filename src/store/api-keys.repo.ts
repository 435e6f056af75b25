import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { hotQuery } from './hot-query.js';

const apiKeyByDigest = hotQuery((db, p: { digest: string }) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .innerJoin('users as u', 'u.id', 'k.created_by')
    .innerJoin('teams as t', 't.id', 'k.team_id')
    .select([
      'k.id',
      'k.account_id',
      'k.team_id',
      'k.created_by',
      'k.digest',
      'k.scopes',
      'k.revoked_at',
      'k.expires_at',
      'k.last_used_at',
      'a.status as account_status',
      'a.features as account_features',
      'u.status as creator_status',
      'u.email as creator_email',
      'u.name as creator_name',
      't.deleted_at as team_deleted_at',
    ])
    .where('k.digest', '=', p.digest),
);

/** A key row with what authentication needs from its account, team and creator, in one query. */
export async function findApiKeyByDigest(db: Kysely<Database>, digest: string) {
  return (await apiKeyByDigest(db, { digest })).rows[0];
}

export async function touchApiKey(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
