/**
 * Scorecard management in the web application: a manager manages the scorecards and scorecard choice of their
 * own teams, an admin those of every team of the account. Every criteria edit adds a scorecard_versions row and
 * bumps current_version, in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { viewerTeams, type Viewer } from './web-calls.repo.js';

export async function scorecardsOfTeams(db: Kysely<Database>, teamIds: string[]) {
  if (teamIds.length === 0) return [];
  return db
    .selectFrom('scorecards')
    .select(['id', 'team_id', 'name', 'status', 'current_version', 'updated_at'])
    .where('team_id', 'in', teamIds)
    .orderBy('name')
    .execute();
}

/** A scorecard of a team the viewer manages, with its current criteria; undefined otherwise. */
export async function findManageableScorecard(db: Kysely<Database>, viewer: Viewer, id: string) {
  const teams = await viewerTeams(db, viewer);
  if (teams.length === 0) return undefined;
  const card = await db
    .selectFrom('scorecards as s')
    .innerJoin('teams as t', 't.id', 's.team_id')
    .leftJoin('scorecard_versions as v', (join) =>
      join.onRef('v.scorecard_id', '=', 's.id').onRef('v.version', '=', 's.current_version'),
    )
    .select([
      's.id',
      's.team_id',
      's.name',
      's.status',
      's.current_version',
      's.created_at',
      's.updated_at',
      't.name as team_name',
      'v.criteria',
    ])
    .where('s.id', '=', id)
    .where('s.account_id', '=', viewer.accountId)
    .where(
      's.team_id',
      'in',
      teams.map((t) => t.id),
    )
    .executeTakeFirst();
  return card;
}

export async function scorecardVersions(db: Kysely<Database>, scorecardId: string) {
  return db
    .selectFrom('scorecard_versions')
    .select(['version', 'created_at'])
    .where('scorecard_id', '=', scorecardId)
    .orderBy('version', 'desc')
    .execute();
}

/** A new name or status: no new version (criteria are what versions pin). */
export async function updateScorecard(
  db: Kysely<Database>,
  id: string,
  change: { name: string } | { status: string },
): Promise<void> {
  await db
    .updateTable('scorecards')
    .set({ ...change, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

export async function scorecardNameTaken(
  db: Kysely<Database>,
  teamId: string,
  name: string,
  exceptId?: string,
) {
  let query = db.selectFrom('scorecards').select('id').where('team_id', '=', teamId).where('name', '=', name);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** A new draft scorecard at version 1. */
export async function createScorecard(
  db: Kysely<Database>,
  input: { accountId: string; teamId: string; name: string; criteria: unknown[] },
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('scorecards')
      .values({
        id,
        account_id: input.accountId,
        team_id: input.teamId,
        name: input.name,
        status: 'draft',
        current_version: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await tx
      .insertInto('scorecard_versions')
      .values({ scorecard_id: id, version: 1, criteria: JSON.stringify(input.criteria), created_at: now })
      .execute();
  });
  return id;
}

/** Adds a version with these criteria (and renames); returns the new version number. */
export async function saveScorecardVersion(
  db: Kysely<Database>,
  id: string,
  input: { name: string; criteria: unknown[] },
): Promise<number> {
  const now = new Date().toISOString();
  return db.transaction().execute(async (tx) => {
    // The write first: it takes SQLite's write lock, and on PostgreSQL the row lock, so two edits never share a number.
    await tx
      .updateTable('scorecards')
      .set({ name: input.name, current_version: sql<number>`current_version + 1`, updated_at: now })
      .where('id', '=', id)
      .execute();
    const row = await tx
      .selectFrom('scorecards')
      .select('current_version')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const version = Number(row.current_version);
    await tx
      .insertInto('scorecard_versions')
      .values({ scorecard_id: id, version, criteria: JSON.stringify(input.criteria), created_at: now })
      .execute();
    return version;
  });
}

/** The team's default scorecard and its rules by call type. */
export async function teamChoice(db: Kysely<Database>, teamId: string) {
  const [settings, rules] = await Promise.all([
    db
      .selectFrom('team_settings')
      .select('default_scorecard_id')
      .where('team_id', '=', teamId)
      .executeTakeFirst(),
    db
      .selectFrom('team_scorecard_rules')
      .select(['call_type', 'scorecard_id'])
      .where('team_id', '=', teamId)
      .execute(),
  ]);
  return {
    defaultId: settings?.default_scorecard_id ?? null,
    rules: Object.fromEntries(rules.map((r) => [r.call_type, r.scorecard_id])) as Record<string, string>,
  };
}

/** Replaces the team's default and rules in one transaction. */
export async function saveTeamChoice(
  db: Kysely<Database>,
  teamId: string,
  choice: { defaultId: string | null; rules: Record<string, string> },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('team_scorecard_rules').where('team_id', '=', teamId).execute();
    await tx
      .insertInto('team_settings')
      .values({ team_id: teamId, default_scorecard_id: choice.defaultId })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ default_scorecard_id: choice.defaultId }))
      .execute();
    const rows = Object.entries(choice.rules).map(([call_type, scorecard_id]) => ({
      team_id: teamId,
      call_type,
      scorecard_id,
    }));
    if (rows.length) await tx.insertInto('team_scorecard_rules').values(rows).execute();
  });
}
