/** Pure: one call's turns × its scorecard → a 0..100 score with per-criterion results, or a skip reason. */
import type { Turn } from '../ingest/transcript.js';
import type { Criterion } from './criteria.js';
import { normaliseSpeaker, wordCount, type CriterionResult, type Scorer } from './scorers/scorer.js';

export { wordCount };

export type SkipReason = 'too_short' | 'no_scorecard' | 'empty_scorecard' | 'all_criteria_na';

export interface CallScoreResult {
  kind: 'scored';
  /** Weighted mean of the applicable criteria × 100, one decimal. */
  score: number;
  criteria: CriterionResult[];
}

export interface CallSkip {
  kind: 'skipped';
  reason: SkipReason;
  /** all_criteria_na: each criterion's N/A result, so the call page can say why; absent for the other reasons. */
  criteria?: CriterionResult[];
}

export interface PrecheckInput {
  /** The scorecard chosen at ingest, as it is now; null when it is gone. */
  scorecard: { status: string; criteria: Criterion[] } | null;
  turns: Turn[];
  repLabel: string;
  minRepTurns: number;
  minRepWords: number;
}

export interface ScoreCallInput extends PrecheckInput {
  callType: string | null;
  scorer: Scorer;
}

/**
 * The skips knowable without scoring, in DESIGN's precedence: no_scorecard (gone or not published), then
 * empty_scorecard, then too_short (fewer rep turns or rep words than the minimums). Null when scoring should run.
 */
export function precheckCall(input: PrecheckInput): CallSkip | null {
  const { scorecard } = input;
  if (!scorecard || scorecard.status !== 'published') return skip('no_scorecard');
  if (scorecard.criteria.length === 0) return skip('empty_scorecard');
  const rep = normaliseSpeaker(input.repLabel);
  let repTurns = 0;
  let repWords = 0;
  for (const turn of input.turns) {
    if (normaliseSpeaker(turn.speaker) !== rep) continue;
    repTurns++;
    repWords += wordCount(turn.text);
  }
  if (repTurns < input.minRepTurns || repWords < input.minRepWords) return skip('too_short');
  return null;
}

/** Prechecks, scores the criteria, and skips with all_criteria_na when none applies. */
export async function scoreCall(input: ScoreCallInput): Promise<CallScoreResult | CallSkip> {
  const early = precheckCall(input);
  if (early) return early;
  const criteria = input.scorecard!.criteria;
  const results = await input.scorer.scoreCriteria({
    turns: input.turns,
    repLabel: input.repLabel,
    callType: input.callType,
    criteria,
  });
  // A scorer that drops or invents criteria would skew the mean silently; fail the job instead.
  if (results.length !== criteria.length || results.some((r, i) => r.key !== criteria[i]!.key)) {
    throw new Error(
      `scorer "${input.scorer.name}" returned results that do not match the scorecard's criteria`,
    );
  }
  const score = weightedScore(results);
  if (score === null) return { kind: 'skipped', reason: 'all_criteria_na', criteria: results };
  return { kind: 'scored', score, criteria: results };
}

/** Weighted mean of the applicable criteria on 0..100, one decimal; null when none applies. */
export function weightedScore(results: readonly CriterionResult[]): number | null {
  let weighted = 0;
  let weights = 0;
  for (const result of results) {
    if (result.na || result.score === null) continue;
    weighted += result.weight * result.score;
    weights += result.weight;
  }
  if (weights === 0) return null;
  return Math.round((weighted / weights) * 1000) / 10;
}

function skip(reason: SkipReason): CallSkip {
  return { kind: 'skipped', reason };
}
