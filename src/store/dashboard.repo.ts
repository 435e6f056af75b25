/**
 * Read models for the web dashboard: aggregates over the calls the viewer may see (DESIGN 4 "Visibility", through
 * `visibleTo`) inside a window of weeks, by when the call happened (`occurred_at`, or `created_at` for calls made
 * in the web app without a date).
 *
 * - `dashboardBuckets` is ONE grouped scan of `calls` alone: (team, rep, status, week) with call counts, scored
 *   counts and score sums (of `calls.current_score`), so every total on the page (trend, per team, per rep, by
 *   status) is summed from it exactly.
 * - `recentCriteria` reads the criteria JSON of the most recent current scored results in the window, at most
 *   `limit` of them: the only place JSON is parsed, and it is bounded.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { happenedAt, visibleTo, type Viewer } from './web-calls.repo.js';

export interface DashboardScope {
  teamId?: string;
  repUserId?: string;
}

/** Week boundaries, oldest first: `bounds[i]` ≤ week i < `bounds[i + 1]` (ISO-8601 UTC strings). */
export type WeekBounds = readonly string[];

export interface DashboardBucket {
  team_id: string;
  rep_user_id: string;
  status: string;
  week: number;
  calls: number;
  scored: number;
  /** Sum of the current results' scores (0..100 each) of the scored calls. */
  score_sum: number;
}

type Eb = ExpressionBuilder<Database & { c: Database['calls'] }, 'c'>;

function inWindow(eb: Eb, viewer: Viewer, scope: DashboardScope, bounds: WeekBounds) {
  const conditions = [
    visibleTo(eb as unknown as Parameters<typeof visibleTo>[0], viewer),
    eb(happenedAt, '>=', bounds[0]!),
    eb(happenedAt, '<', bounds[bounds.length - 1]!),
  ];
  if (scope.teamId) conditions.push(eb('c.team_id', '=', scope.teamId));
  if (scope.repUserId) conditions.push(eb('c.rep_user_id', '=', scope.repUserId));
  return eb.and(conditions);
}

/** The week index of `happenedAt`: a CASE over string boundaries (portable; no date functions). */
function weekIndex(bounds: WeekBounds) {
  const inner = bounds.slice(1, -1);
  if (inner.length === 0) return sql<number>`0`;
  const whens = inner.map((b, i) => sql`when ${happenedAt} < ${b} then ${sql.lit(i)}`);
  return sql<number>`case ${sql.join(whens, sql` `)} else ${sql.lit(inner.length)} end`;
}

export async function dashboardBuckets(
  db: Kysely<Database>,
  viewer: Viewer,
  scope: DashboardScope,
  bounds: WeekBounds,
): Promise<DashboardBucket[]> {
  const rows = db
    .selectFrom('calls as c')
    // The current result's score, kept on the call row by recordResult: no join to score_results (it was about
    // half of this scan's time over 100,000 calls).
    .select([
      'c.team_id',
      'c.rep_user_id',
      'c.status',
      'c.current_score as score',
      weekIndex(bounds).as('week'),
    ])
    .where((eb) => inWindow(eb as unknown as Eb, viewer, scope, bounds));
  const grouped = await db
    .selectFrom(rows.as('x'))
    .select((eb) => [
      'x.team_id',
      'x.rep_user_id',
      'x.status',
      'x.week',
      eb.fn.countAll().as('calls'),
      eb.fn.count('x.score').as('scored'),
      // PostgreSQL's `real` is 4 bytes: sum in double precision (SQLite reads the type name as REAL).
      sql<number | string | null>`sum(cast(x.score as double precision))`.as('score_sum'),
    ])
    .groupBy(['x.team_id', 'x.rep_user_id', 'x.status', 'x.week'])
    .execute();
  return grouped.map((r) => ({
    team_id: r.team_id,
    rep_user_id: r.rep_user_id,
    status: r.status,
    week: Number(r.week),
    calls: Number(r.calls),
    scored: Number(r.scored),
    score_sum: r.score_sum === null ? 0 : Number(r.score_sum),
  }));
}

/** Criteria JSON of the newest current scored results in the window (at most `limit`). */
export async function recentCriteria(
  db: Kysely<Database>,
  viewer: Viewer,
  scope: DashboardScope,
  bounds: WeekBounds,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('calls as c')
    .innerJoin('score_results as r', (join) =>
      join.onRef('r.call_id', '=', 'c.id').on('r.is_current', '=', 1),
    )
    .select('r.criteria')
    .where((eb) => inWindow(eb as unknown as Eb, viewer, scope, bounds))
    .where('r.score', 'is not', null)
    .orderBy(happenedAt, 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.criteria);
}

/** Display names of the given teams and users (of the viewer's account only). */
export async function namesOf(
  db: Kysely<Database>,
  accountId: string,
  teamIds: string[],
  userIds: string[],
): Promise<{ teams: Map<string, string>; users: Map<string, string> }> {
  const [teams, users] = await Promise.all([
    teamIds.length
      ? db
          .selectFrom('teams')
          .select(['id', 'name'])
          .where('account_id', '=', accountId)
          .where('id', 'in', teamIds)
          .execute()
      : [],
    userIds.length
      ? db
          .selectFrom('users')
          .select(['id', 'name'])
          .where('account_id', '=', accountId)
          .where('id', 'in', userIds)
          .execute()
      : [],
  ]);
  return {
    teams: new Map(teams.map((t) => [t.id, t.name])),
    users: new Map(users.map((u) => [u.id, u.name])),
  };
}
