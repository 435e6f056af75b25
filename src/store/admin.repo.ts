/**
 * What the admin pages read and write: API keys, users, teams, one-time links and the account itself.
 * Every function takes the admin's account id and filters on it, so an id from another account matches nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

// ---------------------------------------------------------------- API keys

function apiKeysQuery(db: Db, accountId: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('teams as t', 't.id', 'k.team_id')
    .innerJoin('users as u', 'u.id', 'k.created_by')
    .select([
      'k.id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.revoked_at',
      'k.expires_at',
      'k.last_used_at',
      'k.created_at',
      'k.team_id',
      't.name as team_name',
      't.deleted_at as team_deleted_at',
      'k.created_by',
      'u.name as creator_name',
      'u.email as creator_email',
      'u.status as creator_status',
      'u.role as creator_role',
    ])
    .where('k.account_id', '=', accountId);
}

/** Every key of the account, newest first, with its team and creator. */
export async function listApiKeys(db: Db, accountId: string) {
  return apiKeysQuery(db, accountId).orderBy('k.created_at', 'desc').orderBy('k.id').execute();
}

export type ApiKeyListRow = Awaited<ReturnType<typeof listApiKeys>>[number];

export async function findApiKey(db: Db, accountId: string, id: string): Promise<ApiKeyListRow | undefined> {
  return apiKeysQuery(db, accountId).where('k.id', '=', id).executeTakeFirst();
}

export interface NewApiKey {
  accountId: string;
  teamId: string;
  createdBy: string;
  digest: string;
  prefix: string;
  name: string;
  scopes: string[];
  now: string;
}

export async function insertApiKey(db: Db, key: NewApiKey): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('api_keys')
    .values({
      id,
      account_id: key.accountId,
      team_id: key.teamId,
      created_by: key.createdBy,
      digest: key.digest,
      prefix: key.prefix,
      name: key.name,
      scopes: JSON.stringify(key.scopes),
      revoked_at: null,
      expires_at: null,
      last_used_at: null,
      created_at: key.now,
    })
    .execute();
  return id;
}

/**
 * Rotation in one short transaction: the old key (active: neither revoked nor already rotating) gets its
 * `expires_at`, and the new key copies its team, scopes and name. Undefined when the old key was not active.
 */
export async function rotateApiKey(
  db: Db,
  accountId: string,
  oldId: string,
  replacement: { createdBy: string; digest: string; prefix: string; now: string; expiresAt: string },
): Promise<string | undefined> {
  return db.transaction().execute(async (tx) => {
    const old = await tx
      .selectFrom('api_keys')
      .select(['team_id', 'scopes', 'name'])
      .where('account_id', '=', accountId)
      .where('id', '=', oldId)
      .where('revoked_at', 'is', null)
      .where('expires_at', 'is', null)
      .executeTakeFirst();
    if (!old) return undefined;
    const updated = await tx
      .updateTable('api_keys')
      .set({ expires_at: replacement.expiresAt })
      .where('id', '=', oldId)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .where('expires_at', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return undefined;
    const id = randomUUID();
    await tx
      .insertInto('api_keys')
      .values({
        id,
        account_id: accountId,
        team_id: old.team_id,
        created_by: replacement.createdBy,
        digest: replacement.digest,
        prefix: replacement.prefix,
        name: old.name,
        scopes: old.scopes,
        revoked_at: null,
        expires_at: null,
        last_used_at: null,
        created_at: replacement.now,
      })
      .execute();
    return id;
  });
}

/** Immediate revocation; true when the key was not revoked before. */
export async function revokeApiKey(db: Db, accountId: string, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Hands a key to another active admin of the same account; false when the key or the admin does not qualify. */
export async function transferApiKey(
  db: Db,
  accountId: string,
  id: string,
  toUserId: string,
): Promise<boolean> {
  const admin = await db
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', toUserId)
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!admin) return false;
  const result = await db
    .updateTable('api_keys')
    .set({ created_by: admin.id })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Keys a user owns that can still be used (not revoked; rotation grace included). */
export async function countLiveKeysOwnedBy(
  db: Db,
  accountId: string,
  userId: string,
  now: string,
): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('created_by', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listActiveAdmins(db: Db, accountId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('account_id', '=', accountId)
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

// ---------------------------------------------------------------- teams

export async function listTeams(db: Db, accountId: string) {
  return db
    .selectFrom('teams as t')
    .select([
      't.id',
      't.name',
      't.deleted_at',
      't.created_at',
      (eb) =>
        eb
          .selectFrom('team_members as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('m.team_id', '=', 't.id')
          .where('u.status', '!=', 'inactive')
          .as('members'),
      (eb) =>
        eb
          .selectFrom('api_keys as k')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('k.team_id', '=', 't.id')
          .where('k.revoked_at', 'is', null)
          .as('keys'),
    ])
    .where('t.account_id', '=', accountId)
    .orderBy('t.name')
    .orderBy('t.id')
    .execute();
}

export async function listActiveTeams(db: Db, accountId: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function findTeam(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Team names are unique per account, deleted teams included (the seed file keys teams by name). */
export async function findTeamByName(db: Db, accountId: string, name: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'deleted_at'])
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertTeam(db: Db, accountId: string, name: string, now: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('teams')
    .values({ id, account_id: accountId, name, deleted_at: null, created_at: now })
    .execute();
  return id;
}

export async function renameTeam(db: Db, accountId: string, id: string, name: string): Promise<boolean> {
  const result = await db
    .updateTable('teams')
    .set({ name })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function softDeleteTeam(db: Db, accountId: string, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('teams')
    .set({ deleted_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------- users

export async function listUsers(db: Db, accountId: string) {
  const [users, memberships] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'email', 'name', 'role', 'status', 'last_sign_in_at', 'created_at'])
      .where('account_id', '=', accountId)
      .orderBy('name')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('team_members as m')
      .innerJoin('teams as t', 't.id', 'm.team_id')
      .select(['m.user_id', 't.id', 't.name'])
      .where('t.account_id', '=', accountId)
      .where('t.deleted_at', 'is', null)
      .orderBy('t.name')
      .execute(),
  ]);
  const teamsOf = new Map<string, { id: string; name: string }[]>();
  for (const m of memberships) {
    const list = teamsOf.get(m.user_id) ?? [];
    list.push({ id: m.id, name: m.name });
    teamsOf.set(m.user_id, list);
  }
  return users.map((u) => ({ ...u, teams: teamsOf.get(u.id) ?? [] }));
}

export type UserListRow = Awaited<ReturnType<typeof listUsers>>[number];

export async function findAccountUser(
  db: Db,
  accountId: string,
  id: string,
): Promise<UserListRow | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'status', 'last_sign_in_at', 'created_at'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!user) return undefined;
  const teams = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['t.id', 't.name'])
    .where('m.user_id', '=', id)
    .where('t.account_id', '=', accountId)
    .where('t.deleted_at', 'is', null)
    .orderBy('t.name')
    .execute();
  return { ...user, teams };
}

export async function emailTaken(db: Db, accountId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return !!row;
}

/** Only ids of the account's active teams survive: a forged team id from elsewhere is dropped. */
export async function ownActiveTeamIds(db: Db, accountId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('teams')
    .select('id')
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => r.id);
}

/** Creates a pending user (no password) with their teams and an invitation link, in one transaction. */
export async function insertInvitedUser(
  db: Db,
  user: {
    id: string;
    accountId: string;
    email: string;
    name: string;
    role: string;
    teamIds: string[];
    now: string;
  },
  token: NewUserToken,
): Promise<string> {
  const id = user.id;
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('users')
      .values({
        id,
        account_id: user.accountId,
        email: user.email.toLowerCase(),
        name: user.name,
        password_hash: null,
        role: user.role,
        status: 'pending',
        last_sign_in_at: null,
        created_at: user.now,
      })
      .execute();
    for (const teamId of user.teamIds) {
      await tx.insertInto('team_members').values({ team_id: teamId, user_id: id }).execute();
    }
    await tx
      .insertInto('user_tokens')
      .values(tokenRow({ ...token, userId: id }))
      .execute();
  });
  return id;
}

/** Sets name, role and team memberships (memberships of deleted teams are left alone). */
export async function updateUserProfile(
  db: Db,
  accountId: string,
  userId: string,
  profile: { name: string; role: string; teamIds: string[] },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('users')
      .set({ name: profile.name, role: profile.role })
      .where('account_id', '=', accountId)
      .where('id', '=', userId)
      .execute();
    const activeTeams = tx
      .selectFrom('teams')
      .select('id')
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null);
    await tx
      .deleteFrom('team_members')
      .where('user_id', '=', userId)
      .where('team_id', 'in', activeTeams)
      .execute();
    for (const teamId of profile.teamIds) {
      await tx.insertInto('team_members').values({ team_id: teamId, user_id: userId }).execute();
    }
  });
}

/** Deactivation ends every web session of the user and voids their unused links. */
export async function deactivateUser(db: Db, accountId: string, userId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('users')
      .set({ status: 'inactive' })
      .where('account_id', '=', accountId)
      .where('id', '=', userId)
      .where('status', '!=', 'inactive')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await tx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    await tx.deleteFrom('user_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    return true;
  });
}

/** Back to active, or to pending when the user never signed in. */
export async function reactivateUser(db: Db, accountId: string, userId: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set((eb) => ({
      status: eb.case().when('last_sign_in_at', 'is', null).then('pending').else('active').end(),
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .where('status', '=', 'inactive')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------- one-time links

export type TokenPurpose = 'invitation' | 'password_reset';

export interface NewUserToken {
  /** SHA-256 of the token. */
  id: string;
  accountId: string;
  userId: string;
  purpose: TokenPurpose;
  createdBy: string;
  now: string;
  expiresAt: string;
}

function tokenRow(token: NewUserToken) {
  return {
    id: token.id,
    account_id: token.accountId,
    user_id: token.userId,
    purpose: token.purpose,
    created_by: token.createdBy,
    created_at: token.now,
    expires_at: token.expiresAt,
    used_at: null,
  };
}

/** A new link replaces the user's earlier unused links of the same purpose. */
export async function issueUserToken(db: Db, token: NewUserToken): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('user_tokens')
      .where('user_id', '=', token.userId)
      .where('purpose', '=', token.purpose)
      .where('used_at', 'is', null)
      .execute();
    await tx.insertInto('user_tokens').values(tokenRow(token)).execute();
  });
}

/** An unused, unexpired link with its user, or undefined. */
export async function findLiveUserToken(db: Db, id: string, purpose: TokenPurpose, now: string) {
  return db
    .selectFrom('user_tokens as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select(['k.id', 'k.expires_at', 'u.id as user_id', 'u.account_id', 'u.email', 'u.name', 'u.status'])
    .where('k.id', '=', id)
    .where('k.purpose', '=', purpose)
    .where('k.used_at', 'is', null)
    .where('k.expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Uses a link once: marks it used and sets the password, in one transaction. An invitation activates a
 * pending user; a reset needs an active user and ends the user's other sessions. False when the link was
 * used, expired or the user's status no longer fits (nothing is written then).
 */
export async function redeemUserToken(
  db: Db,
  id: string,
  purpose: TokenPurpose,
  passwordHash: string,
  now: string,
): Promise<{ userId: string; accountId: string } | undefined> {
  return db.transaction().execute(async (tx) => {
    const token = await tx
      .selectFrom('user_tokens as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .select(['k.user_id', 'u.account_id', 'u.status'])
      .where('k.id', '=', id)
      .where('k.purpose', '=', purpose)
      .where('k.used_at', 'is', null)
      .where('k.expires_at', '>', now)
      .executeTakeFirst();
    const wanted = purpose === 'invitation' ? 'pending' : 'active';
    if (!token || token.status !== wanted) return undefined;
    const used = await tx
      .updateTable('user_tokens')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return undefined;
    await tx
      .updateTable('users')
      .set({ password_hash: passwordHash, status: 'active', last_sign_in_at: now })
      .where('id', '=', token.user_id)
      .where('status', '=', wanted)
      .execute();
    // Other unused links of the user are void now; a reset also signs the user out everywhere.
    await tx
      .deleteFrom('user_tokens')
      .where('user_id', '=', token.user_id)
      .where('used_at', 'is', null)
      .execute();
    if (purpose === 'password_reset')
      await tx.deleteFrom('sessions').where('user_id', '=', token.user_id).execute();
    return { userId: token.user_id, accountId: token.account_id };
  });
}

// ---------------------------------------------------------------- account

export async function findAccount(db: Db, accountId: string) {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

/** Account names are unique across the service; false when another account holds the name. */
export async function renameAccount(db: Db, accountId: string, name: string): Promise<boolean> {
  const clash = await db
    .selectFrom('accounts')
    .select('id')
    .where('name', '=', name)
    .where('id', '!=', accountId)
    .executeTakeFirst();
  if (clash) return false;
  await db.updateTable('accounts').set({ name }).where('id', '=', accountId).execute();
  return true;
}
