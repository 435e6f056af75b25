/**
 * Scores one claimed job: reads the call, its turns and the scorecard chosen at ingestion at its CURRENT version,
 * runs scoreCall, and returns what to store. Reads only; the worker does the fenced write.
 */
import type { Kysely } from 'kysely';
import type { Turn } from '../ingest/transcript.js';
import type { Database } from '../store/schema.js';
import { findScorecard, scorecardVersion } from '../store/scorecards.repo.js';
import { callForScoring, type NewScoreResult } from '../store/results.repo.js';
import type { Criterion } from './criteria.js';
import { scoreCall } from './score-call.js';
import type { Scorer } from './scorers/scorer.js';

export interface ProcessJobDeps {
  db: Kysely<Database>;
  scorer: Scorer;
  /** Below either, the call is skipped as too_short. */
  minRepTurns: number;
  minRepWords: number;
}

/** The chosen scorecard as it is now, or null when it is gone (archived/draft pass through: precheck skips them). */
async function currentScorecard(db: Kysely<Database>, scorecardId: string | null) {
  if (!scorecardId) return null;
  const card = await findScorecard(db, scorecardId);
  if (!card) return null;
  const version = await scorecardVersion(db, card.id, card.current_version);
  if (!version) return null;
  return {
    id: card.id,
    status: card.status,
    version: version.version,
    criteria: JSON.parse(version.criteria) as Criterion[],
  };
}

/** Throws when the call cannot be scored at all (missing call, unreadable data, scorer failure): a failed attempt. */
export async function processJob(deps: ProcessJobDeps, callId: string): Promise<NewScoreResult> {
  const call = await callForScoring(deps.db, callId);
  if (!call) throw new Error(`call ${callId} or its transcript is missing`);
  const turns = JSON.parse(call.turns) as Turn[];
  const scorecard = await currentScorecard(deps.db, call.scorecard_id);
  const outcome = await scoreCall({
    scorecard,
    turns,
    repLabel: call.rep_speaker,
    callType: call.call_type,
    scorer: deps.scorer,
    minRepTurns: deps.minRepTurns,
    minRepWords: deps.minRepWords,
  });
  const base = {
    scorecardId: call.scorecard_id,
    scorecardVersion: scorecard?.version ?? null,
    scorer: deps.scorer.name,
  };
  if (outcome.kind === 'skipped')
    return { ...base, score: null, skipReason: outcome.reason, criteria: outcome.criteria ?? [] };
  return { ...base, score: outcome.score, skipReason: null, criteria: outcome.criteria };
}
