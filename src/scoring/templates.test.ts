import { describe, expect, it } from 'vitest';
import type { Turn } from '../ingest/transcript.js';
import { validateCriteria } from './criteria.js';
import { scoreCall } from './score-call.js';
import { createRulesScorer } from './scorers/rules.js';
import { SCORECARD_TEMPLATES } from './templates.js';
import { CALL_TYPES } from '../ingest/classify-call.js';

describe('SCORECARD_TEMPLATES', () => {
  it('offers Discovery, Cold call, Demo / evaluation and Negotiation', () => {
    expect(SCORECARD_TEMPLATES.map((t) => t.name)).toEqual([
      'Discovery',
      'Cold call',
      'Demo / evaluation',
      'Negotiation',
    ]);
    expect(new Set(SCORECARD_TEMPLATES.map((t) => t.key)).size).toBe(SCORECARD_TEMPLATES.length);
  });

  it.each(SCORECARD_TEMPLATES.map((t) => [t.name, t] as const))(
    '%s passes validateCriteria unchanged',
    (_, t) => {
      const checked = validateCriteria(t.criteria);
      expect(checked).toEqual({ ok: true, criteria: t.criteria });
      expect(t.criteria.length).toBeGreaterThanOrEqual(6);
      expect(t.description.length).toBeGreaterThan(0);
    },
  );

  it('names only spec call types, each in one template', () => {
    const all = SCORECARD_TEMPLATES.flatMap((t) => t.callTypes);
    for (const type of all) expect(CALL_TYPES as readonly string[]).toContain(type);
    expect(new Set(all).size).toBe(all.length);
  });

  it('cold call opens with permission and states its reason early', () => {
    const cold = SCORECARD_TEMPLATES.find((t) => t.key === 'cold_call')!;
    const checks = cold.criteria.map((c) => c.check.type);
    expect(checks.filter((type) => type === 'mentions_before')).toHaveLength(2);
  });

  it('a good cold call outscores a poor one', async () => {
    const cold = SCORECARD_TEMPLATES.find((t) => t.key === 'cold_call')!;
    const rep = (text: string, start_ms: number): Turn => ({ speaker: 'Sam', text, start_ms });
    const prospect = (text: string, start_ms: number): Turn => ({ speaker: 'Pat', text, start_ms });
    const good: Turn[] = [
      prospect('Hello, Pat speaking.', 0),
      rep('Hi Pat, this is Sam from Acme. I know this is out of the blue, do you have a minute?', 2000),
      prospect('Sure, a quick one.', 8000),
      rep(
        'The reason I am calling is that teams like yours spend hours on reporting. How do you handle it today?',
        12000,
      ),
      prospect(
        'We already have a tool for that, honestly. The team built a set of spreadsheets two years ago.',
        25000,
      ),
      rep('That makes sense. Out of curiosity, what do you like about it? Where does it fall short?', 30000),
      prospect(
        'It is slow and nobody trusts the numbers. Every month end we lose two days reconciling, and the board keeps asking why the figures move.',
        40000,
      ),
      rep(
        'Would it be worth 20 minutes next week to compare? I can send a calendar invite for Tuesday.',
        50000,
      ),
      prospect('Fine, Tuesday at ten works.', 60000),
    ];
    const poor: Turn[] = [
      prospect('Hello?', 0),
      rep(`Hi, Acme here. ${Array.from({ length: 160 }, () => 'pitch').join(' ')}.`, 2000),
      prospect('Not interested, thanks.', 90000),
      rep('Okay, well our product is the best on the market and everyone loves it.', 95000),
      prospect('Bye.', 100000),
      rep('Bye then, thanks anyway for your time today.', 101000),
    ];
    const score = async (turns: Turn[]) =>
      scoreCall({
        scorecard: { status: 'published', criteria: cold.criteria },
        turns,
        repLabel: 'Sam',
        callType: 'cold_call',
        minRepTurns: 3,
        minRepWords: 20,
        scorer: createRulesScorer(),
      });
    const [high, low] = [await score(good), await score(poor)];
    expect(high.kind).toBe('scored');
    expect(low.kind).toBe('scored');
    if (high.kind !== 'scored' || low.kind !== 'scored') return;
    expect(high.score).toBeGreaterThan(80);
    expect(low.score).toBeLessThan(30);
  });

  it('discovery\'s pain criterion does not count a courteous "no problem", and counts real pain questions', async () => {
    const discovery = SCORECARD_TEMPLATES.find((t) => t.key === 'discovery')!;
    const pain = discovery.criteria.filter((c) => c.key === 'uncovers_pain');
    const turns = (...repLines: string[]): Turn[] =>
      repLines.flatMap((text, i) => [
        { speaker: 'Sam', text, start_ms: i * 20_000 },
        { speaker: 'Pat', text: 'Sure, go on.', start_ms: i * 20_000 + 10_000 },
      ]);
    const [courtesy] = await createRulesScorer().scoreCriteria({
      criteria: pain,
      turns: turns('No problem at all.', 'No problem, happy to wait.', 'Thanks, no problems on my side.'),
      repLabel: 'Sam',
      callType: 'discovery',
    });
    expect(courtesy!.score).toBe(0);
    const [asked] = await createRulesScorer().scoreCriteria({
      criteria: pain,
      turns: turns(
        'What is the biggest problem with the current process?',
        'Where do your teams struggle most?',
      ),
      repLabel: 'Sam',
      callType: 'discovery',
    });
    expect(asked!.score).toBe(1);
  });
});
