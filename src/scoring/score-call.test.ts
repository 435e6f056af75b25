import { describe, expect, it } from 'vitest';
import type { Turn } from '../ingest/transcript.js';
import type { Criterion } from './criteria.js';
import { precheckCall, scoreCall, weightedScore, wordCount, type PrecheckInput } from './score-call.js';
import { createRulesScorer } from './scorers/rules.js';
import type { CriterionResult, ScoreInput, Scorer } from './scorers/scorer.js';

const REP = 'Alex';
const rep = (text: string): Turn => ({ speaker: REP, text, start_ms: null });
const customer = (text: string): Turn => ({ speaker: 'Dana', text, start_ms: null });
const words = (n: number): string => Array.from({ length: n }, () => 'word').join(' ');

const phrases = (key: string, any: string[], extra: Partial<Criterion> = {}): Criterion => ({
  key,
  title: key,
  check: { type: 'phrases', any },
  ...extra,
});

/** Four rep turns of 15 words each: enough for the default minimums (3 turns, 40 words). */
const longEnough: Turn[] = [
  rep(words(15)),
  customer('Hi.'),
  rep(words(15)),
  rep(words(15)),
  rep('next step ' + words(13)),
];

function input(overrides: Partial<PrecheckInput> = {}): PrecheckInput {
  return {
    scorecard: { status: 'published', criteria: [phrases('next_steps', ['next step'])] },
    turns: longEnough,
    repLabel: REP,
    minRepTurns: 3,
    minRepWords: 40,
    ...overrides,
  };
}

/** A scorer that returns fixed results and records whether it ran. */
function fixedScorer(make: (input: ScoreInput) => CriterionResult[]): Scorer & { calls: number } {
  return {
    name: 'fixed',
    calls: 0,
    async scoreCriteria(scoreInput) {
      this.calls++;
      return make(scoreInput);
    },
  };
}

const result = (key: string, weight: number, score: number | null): CriterionResult => ({
  key,
  title: key,
  weight,
  score,
  na: score === null,
  evidence: [],
  rationale: '',
});

describe('precheckCall', () => {
  it('passes a published scorecard with criteria and a long enough rep side', () => {
    expect(precheckCall(input())).toBeNull();
  });

  it('no_scorecard when the scorecard is gone or not published', () => {
    expect(precheckCall(input({ scorecard: null }))).toEqual({ kind: 'skipped', reason: 'no_scorecard' });
    for (const status of ['draft', 'archived']) {
      const scorecard = { status, criteria: [phrases('a', ['x'])] };
      expect(precheckCall(input({ scorecard }))).toEqual({ kind: 'skipped', reason: 'no_scorecard' });
    }
  });

  it('empty_scorecard when it has no criteria', () => {
    const scorecard = { status: 'published', criteria: [] };
    expect(precheckCall(input({ scorecard }))).toEqual({ kind: 'skipped', reason: 'empty_scorecard' });
  });

  it('too_short on too few rep turns or too few rep words, counting only the rep', () => {
    const fewTurns = [rep(words(30)), rep(words(30)), customer(words(100))];
    expect(precheckCall(input({ turns: fewTurns }))).toEqual({ kind: 'skipped', reason: 'too_short' });
    const fewWords = [rep(words(13)), rep(words(13)), rep(words(13)), customer(words(100))];
    expect(precheckCall(input({ turns: fewWords }))).toEqual({ kind: 'skipped', reason: 'too_short' });
    const exactly = [rep(words(13)), rep(words(13)), rep(words(14))];
    expect(precheckCall(input({ turns: exactly }))).toBeNull();
    expect(precheckCall(input({ turns: exactly, minRepTurns: 4 }))).toEqual({
      kind: 'skipped',
      reason: 'too_short',
    });
  });

  it('matches the rep label ignoring case and runs of whitespace', () => {
    expect(precheckCall(input({ repLabel: '  ALEX ' }))).toBeNull();
    expect(precheckCall(input({ repLabel: 'Dana' }))).toEqual({ kind: 'skipped', reason: 'too_short' });
  });

  it('applies the precedence no_scorecard, empty_scorecard, too_short', () => {
    const short = [rep('hi')];
    expect(precheckCall(input({ scorecard: { status: 'draft', criteria: [] }, turns: short }))?.reason).toBe(
      'no_scorecard',
    );
    expect(
      precheckCall(input({ scorecard: { status: 'published', criteria: [] }, turns: short }))?.reason,
    ).toBe('empty_scorecard');
  });
});

describe('scoreCall', () => {
  it('scores with the weighted mean of applicable criteria, on 0..100', async () => {
    const scorer = fixedScorer(() => [result('a', 2, 1), result('b', 1, 0.25), result('c', 3, null)]);
    const scorecard = {
      status: 'published',
      criteria: [phrases('a', ['x']), phrases('b', ['y']), phrases('c', ['z'])],
    };
    const scored = await scoreCall({ ...input({ scorecard }), callType: null, scorer });
    expect(scored).toEqual({
      kind: 'scored',
      score: 75,
      criteria: [result('a', 2, 1), result('b', 1, 0.25), result('c', 3, null)],
    });
  });

  it('all_criteria_na when no criterion applies, keeping the N/A results', async () => {
    const scorer = fixedScorer(() => [result('next_steps', 1, null)]);
    expect(await scoreCall({ ...input(), callType: null, scorer })).toEqual({
      kind: 'skipped',
      reason: 'all_criteria_na',
      criteria: [result('next_steps', 1, null)],
    });
  });

  it('too_short wins over all_criteria_na, and a skipped precheck never runs the scorer', async () => {
    const scorer = fixedScorer(() => [result('next_steps', 1, null)]);
    const skipped = await scoreCall({ ...input({ turns: [rep('hi')] }), callType: null, scorer });
    expect(skipped).toEqual({ kind: 'skipped', reason: 'too_short' });
    expect(scorer.calls).toBe(0);
  });

  it('passes the call to the scorer as given', async () => {
    let seen: ScoreInput | undefined;
    const scorer = fixedScorer((scoreInput) => {
      seen = scoreInput;
      return [result('next_steps', 1, 1)];
    });
    const base = input();
    await scoreCall({ ...base, callType: 'cold_call', scorer });
    expect(seen).toEqual({
      turns: base.turns,
      repLabel: REP,
      callType: 'cold_call',
      criteria: base.scorecard!.criteria,
    });
  });

  it('fails when the scorer results do not match the criteria', async () => {
    const scorer = fixedScorer(() => [result('other', 1, 1)]);
    await expect(scoreCall({ ...input(), callType: null, scorer })).rejects.toThrow(/do not match/);
  });

  it('scores end to end with the rules scorer, N/A criteria left out of the mean', async () => {
    const criteria: Criterion[] = [
      phrases('next_steps', ['next step'], { weight: 2 }),
      phrases('pricing', ['value'], { applies_when: { customer_mentions_any: ['price'] } }),
      { key: 'asks', title: 'Asks', weight: 1, check: { type: 'questions', min: 2 } },
    ];
    const scored = await scoreCall({
      ...input({ scorecard: { status: 'published', criteria } }),
      callType: 'discovery',
      scorer: createRulesScorer(),
    });
    // next_steps 1 × 2, pricing N/A, asks 0 × 1 → 2/3.
    expect(scored).toMatchObject({ kind: 'scored', score: 66.7 });
  });
});

describe('weightedScore', () => {
  it('rounds to one decimal and is null with nothing applicable', () => {
    expect(weightedScore([result('a', 1, 1), result('b', 2, 0)])).toBe(33.3);
    expect(weightedScore([result('a', 1, 0.8125)])).toBe(81.3);
    expect(weightedScore([result('a', 1, 0)])).toBe(0);
    expect(weightedScore([result('a', 1, null)])).toBeNull();
    expect(weightedScore([])).toBeNull();
  });
});

describe('wordCount', () => {
  it('counts runs of non-whitespace', () => {
    expect(wordCount('')).toBe(0);
    expect(wordCount('   \n\t ')).toBe(0);
    expect(wordCount('  hello,   world!\nok ')).toBe(3);
    expect(wordCount('a\u00a0b\u3000c')).toBe(3);
    expect(wordCount('😀 émigré')).toBe(2);
  });
});
