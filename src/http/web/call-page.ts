/**
 * The call page (GET /calls/:id, the API's app_url): the transcript, the current result and the coaching pieces.
 * Shared by the page's GET and by the coaching forms, which show it again with what was typed when a value is
 * refused (422), so nothing written is lost.
 */
import type { Kysely } from 'kysely';
import { normaliseSpeaker } from '../../scoring/scorers/scorer.js';
import type { Database } from '../../store/schema.js';
import { findCurrentResult, type findVisibleCall } from '../../store/web-calls.repo.js';
import { loadCoaching, type CoachingOutcome } from './coaching/load.js';
import type { WebSession } from './session.js';
import { CallPage, type CallCriterion, type CallResult, type CallTurn } from './views/call.js';
import { speakerReason } from './views/format.js';

export type VisibleCall = NonNullable<Awaited<ReturnType<typeof findVisibleCall>>>;

/** Stored JSON, or null when absent or unreadable (a page never fails on one bad column). */
function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function parseJsonArray(text: string | null): unknown[] {
  const value = parseJson(text);
  return Array.isArray(value) ? value : [];
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function toTurns(turnsJson: string, repSpeaker: string): CallTurn[] {
  const rep = normaliseSpeaker(repSpeaker);
  return parseJsonArray(turnsJson).map((raw) => {
    const t = (raw ?? {}) as Record<string, unknown>;
    const speaker = str(t.speaker);
    return {
      speaker,
      text: str(t.text),
      start_ms: numOrNull(t.start_ms),
      isRep: normaliseSpeaker(speaker) === rep,
    };
  });
}

function toCriteria(criteriaJson: string): CallCriterion[] {
  return parseJsonArray(criteriaJson).map((raw, index) => {
    const c = (raw ?? {}) as Record<string, unknown>;
    const evidence = Array.isArray(c.evidence) ? c.evidence : [];
    return {
      key: str(c.key, `criterion_${index}`),
      title: str(c.title, str(c.key, `Criterion ${index + 1}`)),
      weight: numOrNull(c.weight) ?? 1,
      score: numOrNull(c.score),
      na: c.na === true,
      rationale: str(c.rationale),
      evidence: evidence.map((e) => {
        const ev = (e ?? {}) as Record<string, unknown>;
        return {
          turn_index: numOrNull(ev.turn_index) ?? -1,
          start_ms: numOrNull(ev.start_ms),
          quote: str(ev.quote),
        };
      }),
    };
  });
}

/** The call page of a call the viewer may see, with the outcome of a form (notice, error, typed values). */
export async function callPage(
  db: Kysely<Database>,
  staging: boolean,
  session: WebSession,
  call: VisibleCall,
  outcome: CoachingOutcome,
): Promise<JSX.Element> {
  const resultRow = await findCurrentResult(db, call.id);
  const result: CallResult | null = resultRow
    ? {
        score: resultRow.score === null ? null : Number(resultRow.score),
        skip_reason: resultRow.skip_reason,
        criteria: toCriteria(resultRow.criteria),
        created_at: resultRow.created_at,
        scorecard_version: resultRow.scorecard_version === null ? null : Number(resultRow.scorecard_version),
      }
    : null;
  const participants = parseJsonArray(call.participants).map((raw) => {
    const p = (raw ?? {}) as Record<string, unknown>;
    return {
      role: str(p.role, 'other'),
      name: str(p.name),
      company: typeof p.company === 'string' ? p.company : null,
    };
  });
  const turns = toTurns(call.turns, call.rep_speaker);
  const coaching = await loadCoaching(db, session, call, turns, result?.criteria ?? null, outcome);
  // A manager's correction replaces how the speaker was found (the API's attribution keeps the arrival).
  const correction = [...coaching.actions].reverse().find((a) => a.kind === 'speaker') ?? null;
  return CallPage({
    staging,
    user: session.user,
    csrfToken: session.csrfToken,
    call: {
      ...call,
      speaker_confidence: call.speaker_confidence === null ? null : Number(call.speaker_confidence),
      speaker_reason: correction ? null : speakerReason(parseJson(call.speaker_signals)),
      speaker_corrected_by: correction?.user_name ?? null,
    },
    participants,
    turns,
    result,
    coaching,
  });
}
