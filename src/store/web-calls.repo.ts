/**
 * Read models for the web application's call library and call page. Every query is bounded by the viewer's
 * visibility (DESIGN 4 "Visibility"): admins see every call of their account, managers the calls of their
 * (non-deleted) teams, reps their own. Everyone also sees the calls they own. A call outside the scope is
 * simply not found, so ids never leak.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Dialect } from './db.js';
import type { CallsTable, Database } from './schema.js';

export interface Viewer {
  userId: string;
  accountId: string;
  /** admin | manager | rep (anything else is treated as rep). */
  role: string;
}

export interface LibraryFilters {
  teamId?: string;
  repUserId?: string;
  callType?: string;
  status?: string;
  /** Inclusive UTC days (YYYY-MM-DD) on when the call happened (occurred_at, else created_at). */
  from?: string;
  to?: string;
  /**
   * Inclusive bounds (0..100) on the current result's score as shown (a whole number); calls without a score never
   * match.
   */
  minScore?: number | null;
  maxScore?: number | null;
  /** Full-text search over the transcript's turns (the user's words, not a query language). */
  q?: string;
}

/** The day after a YYYY-MM-DD day, as YYYY-MM-DD (UTC). */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The user's words as an FTS5 query: each word a quoted phrase (inner quotes doubled), all of them required.
 * Operators (`AND`, `NEAR`, `*`, `-`, `:`…) are thereby plain text, so no input is a syntax error.
 */
export function fts5Query(q: string): string {
  return q
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `"${word.replace(/"/g, '""')}"`)
    .join(' ');
}

/**
 * When a call happened: `occurred_at`, or `created_at` for a call without one. The library's order and date
 * filters and the dashboard's weeks use it; the calls_happened indexes (migration 2026-12-03) are on exactly this
 * expression, so it is written once here.
 */
export const happenedAt = sql<string>`coalesce(c.occurred_at, c.created_at)`;

/** Keyset position: the last row of the previous page, newest first by (happened, id). */
export interface LibraryCursor {
  /** The row's `happenedAt`. */
  at: string;
  id: string;
}

type CallsEb = ExpressionBuilder<Database & { c: CallsTable }, 'c'>;

function teamsOf(eb: CallsEb, userId: string) {
  return eb
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select('m.team_id')
    .where('m.user_id', '=', userId)
    .where('t.deleted_at', 'is', null);
}

/** The visibility predicate on `calls as c`. */
export function visibleTo(eb: CallsEb, viewer: Viewer) {
  const sameAccount = eb('c.account_id', '=', viewer.accountId);
  if (viewer.role === 'admin') return sameAccount;
  if (viewer.role === 'manager') {
    return eb.and([
      sameAccount,
      eb.or([eb('c.rep_user_id', '=', viewer.userId), eb('c.team_id', 'in', teamsOf(eb, viewer.userId))]),
    ]);
  }
  return eb.and([sameAccount, eb('c.rep_user_id', '=', viewer.userId)]);
}

export async function listVisibleCalls(
  db: Kysely<Database>,
  dialect: Dialect,
  viewer: Viewer,
  filters: LibraryFilters,
  after: LibraryCursor | null,
  limit: number,
) {
  let query = db
    .selectFrom('calls as c')
    .innerJoin('users as u', 'u.id', 'c.rep_user_id')
    .innerJoin('teams as t', 't.id', 'c.team_id')
    .leftJoin('score_results as r', (join) => join.onRef('r.call_id', '=', 'c.id').on('r.is_current', '=', 1))
    .select([
      'c.id',
      'c.title',
      'c.call_type',
      'c.status',
      'c.skip_reason',
      'c.occurred_at',
      'c.created_at',
      'u.name as rep_name',
      'u.email as rep_email',
      't.name as team_name',
      'r.score',
    ])
    .where((eb) => visibleTo(eb as unknown as CallsEb, viewer));
  if (filters.teamId) query = query.where('c.team_id', '=', filters.teamId);
  if (filters.repUserId) query = query.where('c.rep_user_id', '=', filters.repUserId);
  if (filters.callType) query = query.where('c.call_type', '=', filters.callType);
  if (filters.status) query = query.where('c.status', '=', filters.status);
  if (filters.from) query = query.where(happenedAt, '>=', filters.from);
  if (filters.to) query = query.where(happenedAt, '<', nextDay(filters.to));
  // The bounds apply to the score as the pages show it, rounded to a whole number (98 shows 97.5 and 98.4).
  if (filters.minScore != null) query = query.where('r.score', '>=', Math.ceil(filters.minScore) - 0.5);
  if (filters.maxScore != null) query = query.where('r.score', '<', Math.floor(filters.maxScore) + 0.5);
  const words = filters.q ? fts5Query(filters.q) : '';
  if (words) {
    // Filled by the scoring worker (store/search.repo.ts): SQLite's contentless FTS5 table call_search, keyed
    // through call_search_rows (migration 2026-12-01); PostgreSQL's GIN-indexed call_transcripts.search (2026-11-29).
    query =
      dialect === 'sqlite'
        ? query.where(
            'c.id',
            'in',
            sql<string>`(select call_id from call_search_rows where fts_rowid in (select rowid from call_search where call_search match ${words}))`,
          )
        : query.where(
            'c.id',
            'in',
            sql<string>`(select call_id from call_transcripts where search @@ websearch_to_tsquery('simple', ${filters.q}))`,
          );
  }
  if (after) {
    // Row-value comparison: one index range scan on (…, happened, id). SQLite bounds the scan of an expression
    // index only by a comparison of the expression alone, hence the first, redundant condition.
    query = query
      .where(happenedAt, '<=', after.at)
      .where(sql<boolean>`(${happenedAt}, c.id) < (${after.at}, ${after.id})`);
  }
  return query.orderBy(happenedAt, 'desc').orderBy('c.id', 'desc').limit(limit).execute();
}

/** Non-deleted teams in the viewer's scope: an admin's whole account, a manager's own teams, none for a rep. */
export async function viewerTeams(db: Kysely<Database>, viewer: Viewer) {
  if (viewer.role !== 'admin' && viewer.role !== 'manager') return [];
  let query = db
    .selectFrom('teams as t')
    .select(['t.id', 't.name'])
    .where('t.account_id', '=', viewer.accountId)
    .where('t.deleted_at', 'is', null);
  if (viewer.role === 'manager') {
    query = query.where('t.id', 'in', (eb) =>
      eb.selectFrom('team_members').select('team_id').where('user_id', '=', viewer.userId),
    );
  }
  return query.orderBy('t.name').execute();
}

/** People the viewer may filter by: an admin's whole account, the members of a manager's teams, none for a rep. */
export async function filterableReps(db: Kysely<Database>, viewer: Viewer) {
  if (viewer.role !== 'admin' && viewer.role !== 'manager') return [];
  let query = db
    .selectFrom('users as u')
    .select(['u.id', 'u.name', 'u.email'])
    .where('u.account_id', '=', viewer.accountId);
  if (viewer.role === 'manager') {
    query = query.where((eb) =>
      eb.or([
        eb('u.id', '=', viewer.userId),
        eb(
          'u.id',
          'in',
          eb
            .selectFrom('team_members as m')
            .innerJoin('teams as t', 't.id', 'm.team_id')
            .select('m.user_id')
            .where('t.deleted_at', 'is', null)
            .where(
              'm.team_id',
              'in',
              eb
                .selectFrom('team_members as mm')
                .select('mm.team_id')
                .where('mm.user_id', '=', viewer.userId),
            ),
        ),
      ]),
    );
  }
  return query.orderBy('u.name').orderBy('u.email').execute();
}

/** One visible call with what its page shows. Never selects the caller's metadata (spec: never displayed). */
export async function findVisibleCall(db: Kysely<Database>, viewer: Viewer, id: string) {
  return db
    .selectFrom('calls as c')
    .innerJoin('users as u', 'u.id', 'c.rep_user_id')
    .innerJoin('teams as t', 't.id', 'c.team_id')
    .innerJoin('call_transcripts as x', 'x.call_id', 'c.id')
    .leftJoin('scorecards as s', 's.id', 'c.scorecard_id')
    .select([
      'c.id',
      'c.title',
      'c.provider',
      'c.external_id',
      'c.status',
      'c.skip_reason',
      'c.call_type',
      'c.rep_speaker',
      'c.speaker_source',
      'c.rep_source',
      'c.speaker_confidence',
      'c.recording_id',
      'c.occurred_at',
      'c.created_at',
      'u.name as rep_name',
      'u.email as rep_email',
      't.name as team_name',
      's.name as scorecard_name',
      'x.turns',
      'x.participants',
      'x.speaker_signals',
    ])
    .where('c.id', '=', id)
    .where((eb) => visibleTo(eb as unknown as CallsEb, viewer))
    .executeTakeFirst();
}

/** The call's current scoring result, if it has one. */
export async function findCurrentResult(db: Kysely<Database>, callId: string) {
  return db
    .selectFrom('score_results')
    .select(['score', 'skip_reason', 'criteria', 'scorer', 'scorecard_version', 'created_at'])
    .where('call_id', '=', callId)
    .where('is_current', '=', 1)
    .executeTakeFirst();
}
