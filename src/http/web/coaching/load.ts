/** Gathers what the call page's coaching pieces show (called by the call page's GET handler). */
import type { Kysely } from 'kysely';
import { weightedScore } from '../../../scoring/score-call.js';
import {
  assignableMembers,
  callRecording,
  currentResultId,
  listActions,
  listComments,
  overridesForResult,
} from '../../../store/coaching.repo.js';
import type { Database } from '../../../store/schema.js';
import { viewerOf, type WebSession } from '../session.js';
import { ERROR_FIELDS, ERRORS, NOTICES, type CoachingOverride, type CoachingView } from './views.js';
import { isManager, queryParam } from './common.js';

export interface CoachingCallInput {
  id: string;
  status: string;
  rep_speaker: string;
  recording_id: string | null;
}

interface CriterionInput {
  key: string;
  title: string;
  weight: number;
  score: number | null;
  na: boolean;
}

function describeAction(kind: string, detailJson: string): string {
  let detail: Record<string, unknown> = {};
  try {
    detail = (JSON.parse(detailJson) ?? {}) as Record<string, unknown>;
  } catch {
    // an unreadable detail still names the action
  }
  const s = (v: unknown) => (typeof v === 'string' ? v : '?');
  switch (kind) {
    case 'reassign':
      return `Reassigned from ${s(detail.from_rep)} (${s(detail.from_team)}) to ${s(detail.to_rep)} (${s(detail.to_team)})`;
    case 'rerun':
      return 'Re-ran scoring after a failure';
    case 'speaker':
      return `Rep speaker corrected from “${s(detail.from)}” to “${s(detail.to)}”`;
    default:
      return kind;
  }
}

/** What a form left for the page to show: a notice or an error code, and the values typed into a refused form. */
export interface CoachingOutcome {
  notice: string;
  error: string;
  draft?: Record<string, string>;
}

/** The outcome a redirect carries in its query (`?notice=…` or `?error=…`); codes outside the tables show nothing. */
export function outcomeOf(query: unknown): CoachingOutcome {
  return { notice: queryParam(query, 'notice'), error: queryParam(query, 'error') };
}

export async function loadCoaching(
  db: Kysely<Database>,
  session: WebSession,
  call: CoachingCallInput,
  turns: { speaker: string }[],
  criteria: CriterionInput[] | null,
  outcome: CoachingOutcome,
): Promise<CoachingView> {
  const viewer = viewerOf(session);
  const canManage = isManager(viewer.role);
  const resultId = criteria ? await currentResultId(db, call.id) : null;
  const [comments, overrideRows, members, actions, recording] = await Promise.all([
    listComments(db, call.id),
    resultId ? overridesForResult(db, resultId) : Promise.resolve([]),
    canManage ? assignableMembers(db, viewer) : Promise.resolve([]),
    listActions(db, call.id),
    call.recording_id ? callRecording(db, viewer.accountId, call.recording_id) : Promise.resolve(undefined),
  ]);
  const overrides: Record<string, CoachingOverride> = {};
  for (const o of overrideRows) {
    overrides[o.criterion_key] = {
      score: Number(o.score),
      comment: o.comment,
      author_name: o.author_name,
      created_at: o.created_at,
    };
  }
  const adjustedScore =
    criteria && overrideRows.length
      ? weightedScore(
          criteria.map((c) => {
            const o = overrides[c.key];
            return { ...c, evidence: [], rationale: '', ...(o ? { score: o.score, na: false } : {}) };
          }),
        )
      : null;
  const owner = await db
    .selectFrom('calls')
    .select(['rep_user_id', 'team_id'])
    .where('id', '=', call.id)
    .executeTakeFirst();
  const currentMember = owner ? `${owner.rep_user_id}:${owner.team_id}` : '';
  const labels = [...new Set(turns.map((t) => t.speaker))];
  const notice = NOTICES[outcome.notice] ?? null;
  const error = ERRORS[outcome.error] ?? null;
  return {
    callId: call.id,
    csrfToken: session.csrfToken,
    canManage,
    status: call.status,
    notice,
    error,
    errorField: error === null ? null : (ERROR_FIELDS[outcome.error] ?? null),
    draft: error === null ? {} : (outcome.draft ?? {}),
    comments,
    overrides,
    adjustedScore,
    criteria: criteria ? criteria.map((c) => ({ key: c.key, title: c.title })) : [],
    members: members.map((m) => ({
      value: `${m.user_id}:${m.team_id}`,
      label: `${m.name} (${m.team_name}) — ${m.email}`,
      current: `${m.user_id}:${m.team_id}` === currentMember,
    })),
    labels,
    repSpeaker: call.rep_speaker,
    turnCount: turns.length,
    actions: actions.map((a) => ({
      kind: a.kind,
      text: describeAction(a.kind, a.detail),
      user_name: a.user_name,
      created_at: a.created_at,
    })),
    recording: recording
      ? {
          src: `/calls/${call.id}/recording`,
          kind: recording.content_type.toLowerCase().startsWith('video/') ? 'video' : 'audio',
          contentType: recording.content_type,
        }
      : null,
  };
}
