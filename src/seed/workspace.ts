/**
 * `callscore seed FILE.json`: loads a workspace description (DESIGN section 3) idempotently.
 * Names and emails are the keys; running the same file twice changes nothing the second time.
 */
import { randomUUID } from 'node:crypto';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import { nowIso } from '../store/db.js';
import { digestApiKey, displayPrefix, isWellFormedApiKey, SCOPES } from '../auth/api-keys.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { validateCriteria } from '../scoring/criteria.js';
import { CALL_TYPES } from '../ingest/classify-call.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) =>
  Type.Optional(Type.Union([t, Type.Null()]));

export const WorkspaceSchema = Type.Object({
  accounts: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1 }),
      status: Type.Optional(
        Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('payment_required')]),
      ),
      features: Type.Optional(Type.Array(Type.String())),
      teams: Type.Optional(
        Type.Array(
          Type.Object({ name: Type.String({ minLength: 1 }), deleted: Type.Optional(Type.Boolean()) }),
        ),
      ),
      users: Type.Optional(
        Type.Array(
          Type.Object({
            email: Type.String({ minLength: 3 }),
            name: Type.String({ minLength: 1 }),
            password: Nullable(Type.String({ minLength: 1 })),
            role: Type.Union([Type.Literal('admin'), Type.Literal('manager'), Type.Literal('rep')]),
            teams: Type.Optional(Type.Array(Type.String())),
            status: Type.Optional(
              Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('pending')]),
            ),
          }),
        ),
      ),
      scorecards: Type.Optional(
        Type.Array(
          Type.Object({
            id: Nullable(
              Type.String({
                pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
              }),
            ),
            team: Type.String(),
            name: Type.String({ minLength: 1 }),
            status: Type.Optional(
              Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')]),
            ),
            criteria: Type.Optional(Type.Array(Type.Unknown())),
          }),
        ),
      ),
      team_settings: Type.Optional(
        Type.Array(
          Type.Object({
            team: Type.String(),
            default_scorecard: Nullable(Type.String()),
            rules: Type.Optional(Type.Record(Type.String(), Type.String())),
          }),
        ),
      ),
      api_keys: Type.Optional(
        Type.Array(
          Type.Object({
            secret: Type.String(),
            name: Type.Optional(Type.String()),
            team: Type.String(),
            created_by: Type.String(),
            scopes: Type.Optional(Type.Array(Type.Union(SCOPES.map((s) => Type.Literal(s))))),
            revoked: Type.Optional(Type.Boolean()),
          }),
        ),
      ),
    }),
  ),
});

export type Workspace = Static<typeof WorkspaceSchema>;
type AccountSpec = Workspace['accounts'][number];

export class WorkspaceError extends Error {}

/** The literal values a schema allows (an enum written as a union of literals), or [] for any other schema. */
function allowedLiterals(schema: unknown): unknown[] {
  const s = schema as { const?: unknown; anyOf?: unknown[] };
  if (s.const !== undefined) return [s.const];
  return Array.isArray(s.anyOf) ? s.anyOf.flatMap(allowedLiterals) : [];
}

/** TypeBox's message, or for an enum the values it allows ("Expected union value" names none). */
function describeSchemaError(schema: unknown, message: string): string {
  const allowed = allowedLiterals(schema);
  return allowed.length ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : message;
}

/** Checks the shape and the cross-references; throws WorkspaceError listing every problem. */
export function parseWorkspace(value: unknown): Workspace {
  if (!Value.Check(WorkspaceSchema, value)) {
    // TypeBox reports a missing field twice (required, then its type): one line each, saying it is required.
    const problems = [
      ...new Set(
        [...Value.Errors(WorkspaceSchema, value)].map(
          (e) =>
            `${e.path || '/'}: ${e.value === undefined ? 'is required' : describeSchemaError(e.schema, e.message)}`,
        ),
      ),
    ].slice(0, 20);
    throw new WorkspaceError(`The workspace file is not valid:\n  ${problems.join('\n  ')}`);
  }
  const problems: string[] = [];
  // Names, emails, scorecard ids and key secrets are keys: a second entry would silently overwrite the first.
  const accountNames = new Set<string>();
  const scorecardIds = new Map<string, string>(); // lower-cased id → where it was first given
  const secrets = new Set<string>();
  for (const [i, account] of value.accounts.entries()) {
    const at = `accounts[${i}] (${account.name})`;
    if (accountNames.has(account.name)) problems.push(`${at}: the account "${account.name}" is listed twice`);
    accountNames.add(account.name);
    const teams = new Set<string>();
    for (const team of account.teams ?? []) {
      if (teams.has(team.name)) problems.push(`${at}: the team "${team.name}" is listed twice`);
      teams.add(team.name);
    }
    const emails = new Set<string>();
    for (const user of account.users ?? []) {
      const email = user.email.toLowerCase();
      if (emails.has(email))
        problems.push(`${at}: the user ${user.email} is listed twice (emails compare case-insensitively)`);
      emails.add(email);
    }
    for (const user of account.users ?? []) {
      for (const team of user.teams ?? [])
        if (!teams.has(team)) problems.push(`${at}: user ${user.email} names unknown team "${team}"`);
    }
    const cards = new Map<string, Set<string>>();
    for (const card of account.scorecards ?? []) {
      if (!teams.has(card.team))
        problems.push(`${at}: scorecard "${card.name}" names unknown team "${card.team}"`);
      const names = cards.get(card.team) ?? new Set();
      if (names.has(card.name))
        problems.push(`${at}: the scorecard "${card.name}" of team "${card.team}" is listed twice`);
      names.add(card.name);
      cards.set(card.team, names);
      if (card.id) {
        const where = `scorecard "${card.name}" of ${at}`;
        const first = scorecardIds.get(card.id.toLowerCase());
        if (first) problems.push(`${at}: scorecard "${card.name}" has the same id as ${first}`);
        else scorecardIds.set(card.id.toLowerCase(), where);
      }
      const checked = validateCriteria(card.criteria ?? []);
      if (!checked.ok) problems.push(`${at}: scorecard "${card.name}": ${checked.errors.join('; ')}`);
    }
    const settled = new Set<string>();
    for (const settings of account.team_settings ?? []) {
      if (!teams.has(settings.team)) {
        problems.push(`${at}: team_settings name unknown team "${settings.team}"`);
        continue;
      }
      if (settled.has(settings.team))
        problems.push(`${at}: team_settings for team "${settings.team}" are listed twice`);
      settled.add(settings.team);
      const names = cards.get(settings.team) ?? new Set();
      const refs = [settings.default_scorecard, ...Object.values(settings.rules ?? {})];
      for (const ref of refs) {
        if (ref && !names.has(ref))
          problems.push(`${at}: team "${settings.team}" refers to unknown scorecard "${ref}"`);
      }
      for (const callType of Object.keys(settings.rules ?? {})) {
        if (!(CALL_TYPES as readonly string[]).includes(callType))
          problems.push(
            `${at}: team "${settings.team}" has a rule for unknown call type "${callType}" (one of ${CALL_TYPES.join(', ')})`,
          );
      }
    }
    for (const key of account.api_keys ?? []) {
      if (!isWellFormedApiKey(key.secret))
        problems.push(`${at}: an api key secret must look like svc_sk_<at least 16 characters>`);
      else if (secrets.has(key.secret)) problems.push(`${at}: an api key secret is listed twice`);
      secrets.add(key.secret);
      if (!teams.has(key.team)) problems.push(`${at}: an api key names unknown team "${key.team}"`);
      if (!emails.has(key.created_by.toLowerCase()))
        problems.push(`${at}: an api key's created_by "${key.created_by}" is not a user`);
    }
  }
  if (problems.length)
    throw new WorkspaceError(`The workspace file is not valid:\n  ${problems.join('\n  ')}`);
  return value;
}

/**
 * Properties the workspace format does not know, as paths (`accounts[0].teams[1].colour`). They are ignored, not
 * refused, so a file written for a later version still loads; `callscore seed` prints them as a warning because
 * a typo (`default_scorecards`) would otherwise pass unnoticed. Criteria are checked strictly by validateCriteria.
 */
export function unknownWorkspaceFields(value: unknown): string[] {
  const found: string[] = [];
  const walk = (schema: TSchema, node: unknown, at: string): void => {
    if (schema.type === 'array' && Array.isArray(node)) {
      node.forEach((item, i) => walk(schema.items as TSchema, item, `${at}[${i}]`));
      return;
    }
    if (schema.type !== 'object' || !schema.properties) return;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const properties = schema.properties as Record<string, TSchema>;
    for (const [key, child] of Object.entries(node)) {
      const path = at ? `${at}.${key}` : key;
      if (!Object.hasOwn(properties, key)) found.push(path);
      else walk(properties[key]!, child, path);
    }
  };
  walk(WorkspaceSchema, value, '');
  return found;
}

export interface SeedSummary {
  accounts: number;
  teams: number;
  users: number;
  scorecards: number;
  apiKeys: number;
}

/** Writes the workspace; idempotent. One transaction: a file refused halfway (a clash with the database) leaves nothing. */
export async function seedWorkspace(db: Kysely<Database>, workspace: Workspace): Promise<SeedSummary> {
  const summary: SeedSummary = { accounts: 0, teams: 0, users: 0, scorecards: 0, apiKeys: 0 };
  // Hash passwords before the transaction: scrypt is slow and transactions must stay short.
  const passwords = new Map<AccountSpec, PasswordPlan>();
  for (const account of workspace.accounts) passwords.set(account, await preparePasswords(db, account));
  await db.transaction().execute(async (tx) => {
    // A write first: on SQLite the transaction then holds the write lock from its start, so a serve or worker
    // writing meanwhile makes it wait, where a read that later writes would fail with SQLITE_BUSY.
    await tx
      .updateTable('accounts')
      .set({ name: sql`name` })
      .where(sql<boolean>`1 = 0`)
      .execute();
    for (const account of workspace.accounts)
      await seedAccount(tx, account, passwords.get(account)!, summary);
  });
  return summary;
}

type PasswordPlan = Map<string, string | null>; // email → new hash (null: keep the stored one)

async function preparePasswords(db: Kysely<Database>, account: AccountSpec): Promise<PasswordPlan> {
  const plan: PasswordPlan = new Map();
  const existing = await db
    .selectFrom('users as u')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.email', 'u.password_hash'])
    .where('a.name', '=', account.name)
    .execute();
  const stored = new Map(existing.map((u) => [u.email, u.password_hash]));
  for (const user of account.users ?? []) {
    if (!user.password) continue;
    const email = user.email.toLowerCase();
    const hash = stored.get(email);
    plan.set(
      email,
      hash && (await verifyPassword(user.password, hash)) ? null : await hashPassword(user.password),
    );
  }
  return plan;
}

async function seedAccount(
  tx: Transaction<Database>,
  spec: AccountSpec,
  passwords: PasswordPlan,
  summary: SeedSummary,
): Promise<void> {
  // Seeding again applies what the file states and keeps what it leaves out, so a re-seed never undoes what was
  // done in the web app meanwhile (a revoked key, a deactivated user, a first sign-in).
  const now = nowIso();
  const stated = {
    ...(spec.status ? { status: spec.status } : {}),
    ...(spec.features ? { features: JSON.stringify(spec.features) } : {}),
  };
  let account = await tx.selectFrom('accounts').selectAll().where('name', '=', spec.name).executeTakeFirst();
  if (!account) {
    account = {
      id: randomUUID(),
      name: spec.name,
      status: 'active',
      features: '[]',
      created_at: now,
      ...stated,
    };
    await tx.insertInto('accounts').values(account).execute();
  } else if (Object.keys(stated).length > 0) {
    await tx.updateTable('accounts').set(stated).where('id', '=', account.id).execute();
  }
  const accountId = account.id;
  summary.accounts++;

  const teamIds = new Map<string, string>();
  for (const team of spec.teams ?? []) {
    const deletedAt = team.deleted ? now : null;
    const found = await tx
      .selectFrom('teams')
      .select(['id', 'deleted_at'])
      .where('account_id', '=', accountId)
      .where('name', '=', team.name)
      .executeTakeFirst();
    const id = found?.id ?? randomUUID();
    if (!found) {
      await tx
        .insertInto('teams')
        .values({ id, account_id: accountId, name: team.name, deleted_at: deletedAt, created_at: now })
        .execute();
    } else if (team.deleted !== undefined && Boolean(found.deleted_at) !== team.deleted) {
      await tx.updateTable('teams').set({ deleted_at: deletedAt }).where('id', '=', id).execute();
    }
    teamIds.set(team.name, id);
    summary.teams++;
  }
  const teamId = (name: string) => teamIds.get(name)!;

  const userIds = new Map<string, string>();
  for (const user of spec.users ?? []) {
    const email = user.email.toLowerCase();
    const found = await tx
      .selectFrom('users')
      .select(['id', 'status', 'last_sign_in_at'])
      .where('account_id', '=', accountId)
      .where('email', '=', email)
      .executeTakeFirst();
    const id = found?.id ?? randomUUID();
    const newHash = passwords.get(email);
    // An active user has signed in at least once; a pending one never has (DESIGN: rep_pending_activation). A user
    // the file calls pending who has signed in since is active: the first sign-in activated them.
    const signedInSince = user.status === 'pending' && Boolean(found?.last_sign_in_at);
    const userStatus = signedInSince ? found!.status : (user.status ?? found?.status ?? 'active');
    const lastSignIn = userStatus === 'pending' ? null : (found?.last_sign_in_at ?? now);
    if (!found) {
      await tx
        .insertInto('users')
        .values({
          id,
          account_id: accountId,
          email,
          name: user.name,
          password_hash: newHash ?? null,
          role: user.role,
          status: userStatus,
          last_sign_in_at: lastSignIn,
          created_at: now,
        })
        .execute();
    } else {
      await tx
        .updateTable('users')
        .set({
          name: user.name,
          role: user.role,
          status: userStatus,
          last_sign_in_at: lastSignIn,
          ...(newHash ? { password_hash: newHash } : {}),
        })
        .where('id', '=', id)
        .execute();
    }
    const wanted = new Set((user.teams ?? []).map(teamId));
    await tx.deleteFrom('team_members').where('user_id', '=', id).execute();
    for (const team of wanted)
      await tx.insertInto('team_members').values({ team_id: team, user_id: id }).execute();
    userIds.set(email, id);
    summary.users++;
  }

  const scorecardIds = new Map<string, string>(); // `${team}\u0000${name}` → id
  for (const card of spec.scorecards ?? []) {
    const team = teamId(card.team);
    // Stored with defaults filled in (validated in parseWorkspace, so this cannot fail here).
    const checked = validateCriteria(card.criteria ?? []);
    const criteria = JSON.stringify(checked.ok ? checked.criteria : []);
    const found = await tx
      .selectFrom('scorecards')
      .select(['id', 'current_version', 'status'])
      .where('team_id', '=', team)
      .where('name', '=', card.name)
      .executeTakeFirst();
    const where = `scorecard "${card.name}" of team "${card.team}" (account "${spec.name}")`;
    if (found && card.id && found.id.toLowerCase() !== card.id.toLowerCase())
      throw new WorkspaceError(`The ${where} already exists with id ${found.id}; the file gives ${card.id}`);
    if (!found && card.id) {
      const taken = await tx
        .selectFrom('scorecards')
        .select('name')
        .where('id', '=', card.id.toLowerCase())
        .executeTakeFirst();
      if (taken)
        throw new WorkspaceError(
          `The id ${card.id} of the ${where} already belongs to the scorecard "${taken.name}"`,
        );
    }
    // UUIDs compare case-insensitively (RFC 9562); stored lower-case like the ones the service generates.
    const id = found?.id ?? card.id?.toLowerCase() ?? randomUUID();
    const cardStatus = card.status ?? 'published';
    if (!found) {
      await tx
        .insertInto('scorecards')
        .values({
          id,
          account_id: accountId,
          team_id: team,
          name: card.name,
          status: cardStatus,
          current_version: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await tx
        .insertInto('scorecard_versions')
        .values({ scorecard_id: id, version: 1, criteria, created_at: now })
        .execute();
    } else {
      const current = await tx
        .selectFrom('scorecard_versions')
        .select('criteria')
        .where('scorecard_id', '=', id)
        .where('version', '=', found.current_version)
        .executeTakeFirst();
      let version = found.current_version;
      // Changed criteria make a new version: results stay pinned to the version they used.
      if (current?.criteria !== criteria) {
        version++;
        await tx
          .insertInto('scorecard_versions')
          .values({ scorecard_id: id, version, criteria, created_at: now })
          .execute();
      }
      // Untouched when nothing changed, so a second run of the same file writes nothing (updated_at included).
      if (version !== found.current_version || cardStatus !== found.status) {
        await tx
          .updateTable('scorecards')
          .set({ status: cardStatus, current_version: version, updated_at: now })
          .where('id', '=', id)
          .execute();
      }
    }
    scorecardIds.set(`${card.team}\u0000${card.name}`, id);
    summary.scorecards++;
  }

  for (const settings of spec.team_settings ?? []) {
    const team = teamId(settings.team);
    const ref = (name: string | null | undefined) =>
      name ? scorecardIds.get(`${settings.team}\u0000${name}`)! : null;
    await tx.deleteFrom('team_scorecard_rules').where('team_id', '=', team).execute();
    await tx.deleteFrom('team_settings').where('team_id', '=', team).execute();
    await tx
      .insertInto('team_settings')
      .values({ team_id: team, default_scorecard_id: ref(settings.default_scorecard) })
      .execute();
    for (const [callType, name] of Object.entries(settings.rules ?? {})) {
      await tx
        .insertInto('team_scorecard_rules')
        .values({ team_id: team, call_type: callType, scorecard_id: ref(name)! })
        .execute();
    }
  }

  for (const [i, key] of (spec.api_keys ?? []).entries()) {
    const digest = digestApiKey(key.secret);
    const values = {
      account_id: accountId,
      team_id: teamId(key.team),
      created_by: userIds.get(key.created_by.toLowerCase())!,
      name: key.name ?? `Seeded key ${i + 1}`,
    };
    const found = await tx
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'revoked_at'])
      .where('digest', '=', digest)
      .executeTakeFirst();
    if (found && found.account_id !== accountId)
      throw new WorkspaceError(
        `An api key secret of account "${spec.name}" already belongs to another account`,
      );
    if (!found) {
      await tx
        .insertInto('api_keys')
        .values({
          id: randomUUID(),
          digest,
          prefix: displayPrefix(key.secret),
          expires_at: null,
          last_used_at: null,
          created_at: now,
          ...values,
          scopes: JSON.stringify(key.scopes ?? [...SCOPES]),
          revoked_at: key.revoked ? now : null,
        })
        .execute();
    } else {
      await tx
        .updateTable('api_keys')
        // A revocation is never undone, by the file or otherwise; unstated scopes stay as they are.
        .set({
          ...values,
          ...(key.scopes ? { scopes: JSON.stringify(key.scopes) } : {}),
          ...(key.revoked && !found.revoked_at ? { revoked_at: now } : {}),
        })
        .where('id', '=', found.id)
        .execute();
    }
    summary.apiKeys++;
  }
}
