/**
 * Coaching on a call (web application): notes on the call or a turn, criterion overrides beside the AI result,
 * the audit trail of managers' actions, and the writes behind reassign / re-run / rep speaker correction.
 * Callers check visibility and role first (findVisibleCall); these functions trust the ids they get.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { Viewer } from './web-calls.repo.js';

export async function listComments(db: Kysely<Database>, callId: string) {
  return db
    .selectFrom('call_comments as k')
    .innerJoin('users as u', 'u.id', 'k.author_user_id')
    .select(['k.id', 'k.turn_index', 'k.body', 'k.created_at', 'u.name as author_name'])
    .where('k.call_id', '=', callId)
    .orderBy('k.created_at')
    .orderBy('k.id')
    .execute();
}

export async function addComment(
  db: Kysely<Database>,
  row: { callId: string; accountId: string; authorUserId: string; turnIndex: number | null; body: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('call_comments')
    .values({
      id,
      call_id: row.callId,
      account_id: row.accountId,
      author_user_id: row.authorUserId,
      turn_index: row.turnIndex,
      body: row.body,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** Every override of one result, oldest first: the last one per criterion is in force. */
export async function overridesForResult(db: Kysely<Database>, resultId: string) {
  return db
    .selectFrom('criterion_overrides as o')
    .innerJoin('users as u', 'u.id', 'o.author_user_id')
    .select(['o.id', 'o.criterion_key', 'o.score', 'o.comment', 'o.created_at', 'u.name as author_name'])
    .where('o.result_id', '=', resultId)
    .orderBy('o.created_at')
    .orderBy('o.id')
    .execute();
}

export async function addOverride(
  db: Kysely<Database>,
  row: {
    callId: string;
    resultId: string;
    criterionKey: string;
    score: number;
    comment: string;
    authorUserId: string;
  },
): Promise<void> {
  await db
    .insertInto('criterion_overrides')
    .values({
      id: randomUUID(),
      call_id: row.callId,
      result_id: row.resultId,
      criterion_key: row.criterionKey,
      score: row.score,
      comment: row.comment,
      author_user_id: row.authorUserId,
      created_at: new Date().toISOString(),
    })
    .execute();
}

export async function recordAction(
  db: Kysely<Database>,
  row: {
    callId: string;
    accountId: string;
    userId: string;
    kind: 'reassign' | 'rerun' | 'speaker';
    detail: object;
  },
): Promise<void> {
  await db
    .insertInto('call_actions')
    .values({
      id: randomUUID(),
      call_id: row.callId,
      account_id: row.accountId,
      user_id: row.userId,
      kind: row.kind,
      detail: JSON.stringify(row.detail),
      created_at: new Date().toISOString(),
    })
    .execute();
}

export async function listActions(db: Kysely<Database>, callId: string) {
  return db
    .selectFrom('call_actions as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.kind', 'a.detail', 'a.created_at', 'u.name as user_name'])
    .where('a.call_id', '=', callId)
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
}

/**
 * People a call can be given to, one row per (user, team): active (signed-in) members of the viewer's teams,
 * every non-deleted team of the account for an admin. Empty for reps.
 */
export async function assignableMembers(db: Kysely<Database>, viewer: Viewer) {
  if (viewer.role !== 'admin' && viewer.role !== 'manager') return [];
  let query = db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id as user_id', 'u.name', 'u.email', 't.id as team_id', 't.name as team_name'])
    .where('t.account_id', '=', viewer.accountId)
    .where('t.deleted_at', 'is', null)
    .where('u.status', '=', 'active');
  if (viewer.role === 'manager') {
    query = query.where('t.id', 'in', (eb) =>
      eb.selectFrom('team_members').select('team_id').where('user_id', '=', viewer.userId),
    );
  }
  return query.orderBy('t.name').orderBy('u.name').orderBy('u.email').execute();
}

/**
 * The scorecard a team uses for a call type: its rule, else its default; null when none is configured or the
 * chosen one is not published (DESIGN 4: `scorecard_not_configured` / `scorecard_rule_unavailable`).
 */
export async function teamScorecardFor(
  db: Kysely<Database>,
  teamId: string,
  callType: string | null,
): Promise<{ id: string } | { error: 'not_configured' | 'unavailable' }> {
  const rule = callType
    ? await db
        .selectFrom('team_scorecard_rules')
        .select('scorecard_id')
        .where('team_id', '=', teamId)
        .where('call_type', '=', callType)
        .executeTakeFirst()
    : undefined;
  const settings = await db
    .selectFrom('team_settings')
    .select('default_scorecard_id')
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  const chosen = rule?.scorecard_id ?? settings?.default_scorecard_id ?? null;
  if (!chosen) return { error: 'not_configured' };
  const card = await db
    .selectFrom('scorecards')
    .select(['id', 'status'])
    .where('id', '=', chosen)
    .executeTakeFirst();
  if (!card || card.status !== 'published') return { error: 'unavailable' };
  return { id: card.id };
}

/** Moves a call to another owner, team and scorecard (the caller then re-queues it). */
export async function reassignCall(
  db: Kysely<Database>,
  callId: string,
  to: { userId: string; teamId: string; scorecardId: string },
): Promise<void> {
  await db
    .updateTable('calls')
    .set({
      rep_user_id: to.userId,
      team_id: to.teamId,
      scorecard_id: to.scorecardId,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', callId)
    .execute();
}

/** A corrected rep speaker, with the title recomputed for it (it may have named the new rep's label). */
export async function setRepSpeaker(
  db: Kysely<Database>,
  callId: string,
  label: string,
  title: string,
): Promise<void> {
  await db
    .updateTable('calls')
    .set({ rep_speaker: label, title, updated_at: new Date().toISOString() })
    .where('id', '=', callId)
    .execute();
}

/** The current result's id (overrides hang off it). */
export async function currentResultId(db: Kysely<Database>, callId: string): Promise<string | null> {
  const row = await db
    .selectFrom('score_results')
    .select('id')
    .where('call_id', '=', callId)
    .where('is_current', '=', 1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The call's recording, when it has one that was uploaded. */
export async function callRecording(db: Kysely<Database>, accountId: string, recordingId: string) {
  return db
    .selectFrom('recordings')
    .select(['id', 'storage_key', 'content_type', 'size_bytes', 'status'])
    .where('account_id', '=', accountId)
    .where('id', '=', recordingId)
    .where('status', '=', 'uploaded')
    .executeTakeFirst();
}
