import { describe, expect, it } from 'vitest';
import { parseTranscript, type Turn } from '../../ingest/transcript.js';
import type { Check, Criterion } from '../criteria.js';
import { SCORECARD_TEMPLATES } from '../templates.js';
import { createRulesScorer } from './rules.js';
import type { CriterionResult } from './scorer.js';

const REP = 'Alex (Acme)';
const rep = (text: string, start_ms: number | null = null): Turn => ({ speaker: REP, text, start_ms });
const customer = (text: string, start_ms: number | null = null): Turn => ({
  speaker: 'Dana',
  text,
  start_ms,
});
/** `n` filler words without punctuation or phrases. */
const words = (n: number): string => Array.from({ length: n }, () => 'word').join(' ');

const criterion = (check: Check, extra: Partial<Criterion> = {}): Criterion => ({
  key: 'c',
  title: 'Criterion',
  check,
  ...extra,
});

async function scoreOne(
  turns: Turn[],
  check: Check,
  extra: Partial<Criterion> = {},
  callType: string | null = 'discovery',
): Promise<CriterionResult> {
  const [result] = await createRulesScorer().scoreCriteria({
    turns,
    repLabel: REP,
    callType,
    criteria: [criterion(check, extra)],
  });
  return result!;
}

/** Every quote is verbatim text of the rep turn it cites, with that turn's start_ms. */
function expectValidEvidence(turns: Turn[], results: CriterionResult[]): void {
  for (const result of results) {
    expect(result.evidence.length).toBeLessThanOrEqual(3);
    for (const e of result.evidence) {
      const turn = turns[e.turn_index]!;
      expect(turn.speaker).toBe(REP);
      expect(e.start_ms).toBe(turn.start_ms);
      expect(e.quote.length).toBeGreaterThan(0);
      expect(turn.text).toContain(e.quote);
    }
  }
}

describe('rules scorer: phrases', () => {
  const check: Check = { type: 'phrases', any: ['next step', 'calendar invite'], min: 1 };

  it('scores 1 with the sentence as evidence when the rep says a phrase', async () => {
    const turns = [customer('Hello.'), rep('Thanks. Let us agree the next step now. Bye.', 4200)];
    const result = await scoreOne(turns, check);
    expect(result).toMatchObject({ key: 'c', title: 'Criterion', weight: 1, score: 1, na: false });
    expect(result.evidence).toEqual([
      { turn_index: 1, start_ms: 4200, quote: 'Let us agree the next step now.' },
    ]);
    expect(result.rationale).toContain('"next step"');
  });

  it('scores 0 without evidence when the rep never says one', async () => {
    const result = await scoreOne([rep('We talked about the weather.')], check);
    expect(result).toMatchObject({ score: 0, na: false, evidence: [] });
  });

  it('grades by occurrences toward min', async () => {
    const turns = [rep('The next step is a demo.'), rep('I will send a calendar invite.')];
    expect((await scoreOne(turns, { ...check, min: 4 })).score).toBe(0.5);
    expect((await scoreOne(turns, { ...check, min: 3 })).score).toBe(0.667);
    expect((await scoreOne(turns, { ...check, min: 2 })).score).toBe(1);
  });

  it('defaults min to 1', async () => {
    expect((await scoreOne([rep('Next step: demo.')], { type: 'phrases', any: ['next step'] })).score).toBe(
      1,
    );
  });

  it('ignores the same phrase said by the customer', async () => {
    const result = await scoreOne(
      [customer('What is the next step? Send a calendar invite.'), rep('Okay.')],
      check,
    );
    expect(result.score).toBe(0);
  });

  it('matches case-insensitively across any whitespace, on word boundaries only', async () => {
    expect((await scoreOne([rep('NEXT \n\t Step agreed')], check)).score).toBe(1);
    expect((await scoreOne([rep('the next stepping stone')], check)).score).toBe(0);
    expect((await scoreOne([rep('a nextstep item')], check)).score).toBe(0);
    expect((await scoreOne([rep('we said price')], { type: 'phrases', any: ['pric'] })).score).toBe(0);
  });

  it('treats straight and curly apostrophes alike and escapes regex characters', async () => {
    expect((await scoreOne([rep('So what’s the plan')], { type: 'phrases', any: ["what's"] })).score).toBe(1);
    expect(
      (await scoreOne([rep('It is $5 (per seat).')], { type: 'phrases', any: ['$5 (per seat)'] })).score,
    ).toBe(1);
    expect((await scoreOne([rep('It is $55.')], { type: 'phrases', any: ['$5'] })).score).toBe(0);
  });

  it('matches common contractions either way', async () => {
    const check: Check = { type: 'phrases', any: ["the reason I'm calling", 'let us talk'] };
    expect((await scoreOne([rep('The reason I am calling is X.')], check)).score).toBe(1);
    expect((await scoreOne([rep('So let’s talk.')], check)).score).toBe(1);
    expect((await scoreOne([rep('The reason I called is X.')], check)).score).toBe(0);
  });

  it('recognises the rep label ignoring case and runs of whitespace', async () => {
    const turns = [{ speaker: '  alex   (ACME) ', text: 'The next step is clear.', start_ms: null }];
    const [result] = await createRulesScorer().scoreCriteria({
      turns,
      repLabel: REP,
      callType: null,
      criteria: [criterion(check)],
    });
    expect(result!.score).toBe(1);
  });

  it('quotes at most three excerpts and never the same one twice', async () => {
    const turns = [
      rep('Next step and calendar invite in one sentence.'),
      rep('Next step two.'),
      rep('Next step three.'),
      rep('Next step four.'),
    ];
    const result = await scoreOne(turns, check);
    expect(result.evidence.map((e) => e.quote)).toEqual([
      'Next step and calendar invite in one sentence.',
      'Next step two.',
      'Next step three.',
    ]);
  });

  it('clips a long sentence to about 200 characters around the match, between words', async () => {
    const text = `${words(60)} then the next step is agreed ${words(60)}.`;
    const [turn] = [rep(text, 1000)];
    const result = await scoreOne([turn!], check);
    const quote = result.evidence[0]!.quote;
    expect(text).toContain(quote);
    expect(quote).toContain('next step');
    expect(quote.length).toBeLessThanOrEqual(200);
    expect(quote.length).toBeGreaterThan(150);
    expect(quote).toMatch(/^word /);
    expect(quote).toMatch(/ word$/);
  });
});

describe('rules scorer: questions', () => {
  it('counts sentences ending in a question mark and grades toward min', async () => {
    const turns = [
      rep('Hi. Do you have a budget? What is your process?'),
      customer('Yes. Why do you ask?'),
      rep('Is Monday good?'),
    ];
    expect((await scoreOne(turns, { type: 'questions', min: 3 })).score).toBe(1);
    expect((await scoreOne(turns, { type: 'questions', min: 6 })).score).toBe(0.5);
    const result = await scoreOne(turns, { type: 'questions', min: 6 });
    expect(result.evidence.map((e) => e.quote)).toEqual([
      'Do you have a budget?',
      'What is your process?',
      'Is Monday good?',
    ]);
  });

  it('counts only open questions (and open prompts) with open_only', async () => {
    const turns = [
      rep('Do you have a budget? So, what is your process? Is that manual?'),
      rep('How do you report on it today? Tell me about the last quarter. Can you walk me through a deal?'),
      rep('We shipped it last year. However, is that a problem? Whatever works for you?'),
    ];
    const result = await scoreOne(turns, { type: 'questions', min: 4, open_only: true });
    expect(result.score).toBe(1);
    expect(result.rationale).toContain('4 open questions');
    expect((await scoreOne(turns, { type: 'questions', min: 8 })).rationale).toContain('8 questions');
  });

  it('uses interrogative openings when the transcript has no punctuation at all', async () => {
    const turns = [
      rep('so what does your team look like'),
      customer('about ten people'),
      rep('do you use a crm today'),
      rep('have a great day'),
      rep('we can help with that'),
      rep('walk me through your forecast'),
    ];
    const all = await scoreOne(turns, { type: 'questions', min: 3 });
    expect(all.score).toBe(1);
    expect(all.rationale).toContain('3 questions');
    expect(all.rationale).toContain('no punctuation');
    expectValidEvidence(turns, [all]);
    expect(all.evidence.map((e) => e.turn_index)).toEqual([0, 2, 5]);
    expect((await scoreOne(turns, { type: 'questions', min: 4, open_only: true })).score).toBe(0.5);
  });

  it('does not take decimals, domains or versions for punctuation', async () => {
    const turns = [
      rep('what is your budget'),
      customer('we run version 2.5 from acme.com now'),
      rep('how many people use it'),
      rep('do you use a crm'),
    ];
    const result = await scoreOne(turns, { type: 'questions', min: 3 });
    expect([result.score, result.rationale]).toEqual([
      1,
      expect.stringContaining('3 questions, 3 needed (the transcript has no punctuation'),
    ]);
  });

  it('counts a question mark before a closing bracket or quote', async () => {
    const turns = [rep('Did you mean the price (or the terms?) Really? She asked "why now?" and then left.')];
    const result = await scoreOne(turns, { type: 'questions', min: 3 });
    expect(result.rationale).toContain('3 questions');
    expect(result.evidence.map((e) => e.quote)).toEqual([
      'Did you mean the price (or the terms?)',
      'Really?',
      'She asked "why now?"',
    ]);
  });

  it('does not use openings once any turn has punctuation', async () => {
    const turns = [rep('what does your team look like'), customer('About ten people.')];
    expect((await scoreOne(turns, { type: 'questions', min: 1 })).score).toBe(0);
  });

  it('ignores questions the customer asks', async () => {
    const turns = [customer('What does it cost? How long is setup?'), rep('Good questions.')];
    expect((await scoreOne(turns, { type: 'questions', min: 1 })).score).toBe(0);
  });
});

describe('rules scorer: talk shares', () => {
  const ratio: Check = { type: 'talk_ratio', min: 0.35, max: 0.6 };

  it('scores 1 inside [min, max] and decays linearly to 0 at 0.25 outside', async () => {
    expect((await scoreOne([rep(words(50)), customer(words(50))], ratio)).score).toBe(1);
    expect((await scoreOne([rep(words(75)), customer(words(25))], ratio)).score).toBe(0.4);
    expect((await scoreOne([rep(words(25)), customer(words(75))], ratio)).score).toBe(0.6);
    expect((await scoreOne([rep(words(90)), customer(words(10))], ratio)).score).toBe(0);
    const result = await scoreOne([rep(words(75)), customer(words(25))], ratio);
    expect(result.rationale).toContain('75%');
    expect(result.evidence).toEqual([]);
  });

  it('is N/A when nobody spoke', async () => {
    expect(await scoreOne([rep(''), customer('  ')], ratio)).toMatchObject({ score: null, na: true });
  });

  it('customer_talk: full at min_share, proportional below', async () => {
    const check: Check = { type: 'customer_talk', min_share: 0.4 };
    expect((await scoreOne([rep(words(50)), customer(words(50))], check)).score).toBe(1);
    expect((await scoreOne([rep(words(80)), customer(words(20))], check)).score).toBe(0.5);
    expect((await scoreOne([rep(words(80))], check)).score).toBe(0);
  });

  it('counts every speaker but the rep as the customer side (spec: "Every other speaker counts as the customer side")', async () => {
    const check: Check = { type: 'customer_talk', min_share: 0.4 };
    const engineer: Turn = { speaker: 'Sam (Acme SE)', text: words(40), start_ms: null };
    expect((await scoreOne([rep(words(60)), engineer], check)).score).toBe(1);
    const mention: Check = { type: 'phrases', any: ['great'], min: 1 };
    const gated = { applies_when: { customer_mentions_any: ['price'] } };
    const said = { speaker: 'Sam (Acme SE)', text: 'Let me cover price.', start_ms: null };
    expect(await scoreOne([rep('That is great.'), said], mention, gated)).toMatchObject({
      score: 1,
      na: false,
    });
  });
});

describe('rules scorer: longest_monologue', () => {
  const check: Check = { type: 'longest_monologue', max_words: 100 };

  it('scores 1 up to max and decays to 0 at twice max, quoting the longest rep turn', async () => {
    expect((await scoreOne([rep(words(100)), customer(words(500))], check)).score).toBe(1);
    const turns = [rep(words(20), 0), customer(words(500), 5000), rep(words(150), 9000)];
    const result = await scoreOne(turns, check);
    expect(result.score).toBe(0.5);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({ turn_index: 2, start_ms: 9000 });
    expectValidEvidence(turns, [result]);
    expect((await scoreOne([rep(words(200))], check)).score).toBe(0);
  });
});

describe('rules scorer: mentions_before', () => {
  const byMinute: Check = { type: 'mentions_before', any: ['reason I am calling'], before_minute: 1 };
  const byTurn: Check = { type: 'mentions_before', any: ['reason I am calling'], before_turn: 3 };

  it('scores 1 before the minute, half-credit decaying when late, 0 when never said', async () => {
    const at = (ms: number): Turn[] => [
      customer('Hello?', 0),
      rep('Hi.', 1000),
      rep('The reason I am calling is X.', ms),
    ];
    const onTime = await scoreOne(at(30_000), byMinute);
    expect(onTime.score).toBe(1);
    expect(onTime.evidence).toEqual([
      { turn_index: 2, start_ms: 30_000, quote: 'The reason I am calling is X.' },
    ]);
    expect((await scoreOne(at(60_000), byMinute)).score).toBe(0.5);
    expect((await scoreOne(at(90_000), byMinute)).score).toBe(0.25);
    expect((await scoreOne(at(150_000), byMinute)).score).toBe(0);
    expect((await scoreOne([rep('Hi.', 0)], byMinute)).score).toBe(0);
  });

  it('counts turns of the whole call for before_turn', async () => {
    const turns = (filler: number): Turn[] => [
      ...Array.from({ length: filler }, (_, i) => (i % 2 ? rep('Hi.') : customer('Hello.'))),
      rep('The reason I am calling is X.'),
    ];
    expect((await scoreOne(turns(2), byTurn)).score).toBe(1);
    expect((await scoreOne(turns(3), byTurn)).score).toBe(0.333);
    expect((await scoreOne(turns(6), byTurn)).score).toBe(0);
  });

  it('ignores the customer saying it first', async () => {
    const turns = [
      customer('Is the reason I am calling clear?', 0),
      rep('The reason I am calling is X.', 200_000),
    ];
    expect((await scoreOne(turns, byMinute)).score).toBe(0);
  });

  it('estimates time from words spoken (150 a minute) when there are no timestamps', async () => {
    const turns = [customer(words(300)), rep('The reason I am calling is X.')];
    const result = await scoreOne(turns, { ...byMinute, before_minute: 3 });
    expect(result.score).toBe(1);
    expect(result.rationale).toContain('at 2:00, estimated');
    expect((await scoreOne(turns, byMinute)).score).toBe(0);
  });

  it('estimates from the words before the first timestamp of a partly timed transcript', async () => {
    const turns = [customer(words(750)), rep('The reason I am calling is X.'), customer('Right.', 400_000)];
    const result = await scoreOne(turns, { ...byMinute, before_minute: 4 });
    // 750 words at 150 a minute: minute 5, one minute late for 4.
    expect([result.score, result.rationale]).toEqual([
      0.375,
      expect.stringContaining(
        'at 5:00, estimated from the words spoken before it as no timestamp comes before it',
      ),
    ]);
  });

  it('shows the time rounded down, so a mention just inside the deadline never reads as on it', async () => {
    const result = await scoreOne(
      [customer('Hello?', 0), rep('The reason I am calling is X.', 59_999)],
      byMinute,
    );
    expect([result.score, result.rationale]).toEqual([1, 'First said at 0:59 (before minute 1 wanted).']);
  });

  it("times a mention by the merged segment that holds it, and quotes it with that segment's start", async () => {
    const turns = parseTranscript({
      segments: [
        { speaker: 'Dana', text: 'Hello?', start_ms: 0 },
        { speaker: REP, text: 'Hi, this is Alex.', start_ms: 5_000 },
        { speaker: REP, text: 'Quick question first.', start_ms: 30_000 },
        { speaker: REP, text: 'The reason I am calling is X.', start_ms: 150_000 },
      ],
    });
    const result = await scoreOne(turns, byMinute);
    expect(result.score).toBe(0);
    expect(result.rationale).toContain('First said at 2:30');
    expect(result.evidence).toEqual([
      { turn_index: 1, start_ms: 150_000, quote: 'The reason I am calling is X.' },
    ]);
    // A first segment without a time takes the next one's for its later text, not "minute 0".
    const untimedFirst = parseTranscript({
      segments: [
        { speaker: 'Dana', text: 'Hello?' },
        { speaker: REP, text: 'Hi.' },
        { speaker: REP, text: 'The reason I am calling is X.', start_ms: 200_000 },
      ],
    });
    expect((await scoreOne(untimedFirst, byMinute)).rationale).toContain('First said at 3:20 (');
  });

  it('carries the last known timestamp to a turn without one', async () => {
    const turns = [customer('Hello.', 0), customer(words(300), 70_000), rep('The reason I am calling is X.')];
    // 70 s is 10 s late for minute 1: 0.5 × (1 − 10/60).
    expect((await scoreOne(turns, byMinute)).score).toBe(0.417);
  });
});

describe('rules scorer: applies_when', () => {
  const check: Check = { type: 'phrases', any: ['value'] };

  it('customer_mentions_any: N/A unless the customer says it (the rep saying it does not count)', async () => {
    const when = { applies_when: { customer_mentions_any: ['budget'] } };
    const na = await scoreOne([rep('Budget aside, the value is clear.'), customer('Okay.')], check, when);
    expect(na).toMatchObject({ score: null, na: true, evidence: [] });
    expect(na.rationale).toContain('Not applicable');
    const applies = await scoreOne(
      [customer('Our BUDGET is tight.'), rep('Let me show the value.')],
      check,
      when,
    );
    expect(applies).toMatchObject({ score: 1, na: false });
  });

  it('rep_mentions_any: N/A unless the rep says it', async () => {
    const when = { applies_when: { rep_mentions_any: ['competitor'] } };
    const na = await scoreOne([customer('A competitor called us.'), rep('The value is clear.')], check, when);
    expect(na.na).toBe(true);
    const applies = await scoreOne([rep('Unlike a competitor, we add value.')], check, when);
    expect(applies).toMatchObject({ score: 1, na: false });
  });

  it('call_types: N/A for other call types and for an unknown call type', async () => {
    const when = { applies_when: { call_types: ['negotiation', 'evaluation'] } };
    const turns = [rep('The value is clear.')];
    expect((await scoreOne(turns, check, when, 'discovery')).na).toBe(true);
    expect((await scoreOne(turns, check, when, null)).na).toBe(true);
    expect(await scoreOne(turns, check, when, 'evaluation')).toMatchObject({ score: 1, na: false });
  });

  it('needs every condition given to hold', async () => {
    const when = { applies_when: { customer_mentions_any: ['budget'], call_types: ['negotiation'] } };
    const turns = [customer('Budget?'), rep('Value.')];
    expect((await scoreOne(turns, check, when, 'discovery')).na).toBe(true);
    expect((await scoreOne(turns, check, when, 'negotiation')).na).toBe(false);
  });
});

/** A call long enough to exercise every template: 300 turns alternating customer and rep. */
function longCall(): Turn[] {
  const repLines = [
    'Thanks for joining. The agenda for today is your goals, then next steps. Does that work for you?',
    'What does your current process look like? How many people are involved?',
    'That sounds frustrating. What happens if that problem continues into next quarter?',
    `Let me show you how this works. ${words(40)} Does that make sense?`,
    'I understand the budget concern. The return on investment usually shows in a quarter.',
    'The reason I am calling is the follow up. Shall I send a calendar invite for Tuesday?',
  ];
  const customerLines = [
    'Sure, that works.',
    'We do it all by hand today and it takes forever. The price worries me a bit.',
    'Our budget is limited and we already have a tool.',
    `Honestly ${words(25)} and that is the main challenge.`,
  ];
  return Array.from({ length: 300 }, (_, i) =>
    i % 2 === 0
      ? customer(customerLines[(i / 2) % customerLines.length]!, i * 7000)
      : rep(repLines[((i - 1) / 2) % repLines.length]!, i * 7000),
  );
}

describe('rules scorer: whole scorecards', () => {
  it('returns one result per criterion in order, with default weights applied', async () => {
    const criteria: Criterion[] = [
      criterion({ type: 'phrases', any: ['x'] }, { key: 'a' }),
      criterion({ type: 'questions', min: 1 }, { key: 'b', weight: 3 }),
    ];
    const results = await createRulesScorer().scoreCriteria({
      turns: [rep('x?')],
      repLabel: REP,
      callType: null,
      criteria,
    });
    expect(results.map((r) => [r.key, r.weight, r.score])).toEqual([
      ['a', 1, 1],
      ['b', 3, 1],
    ]);
  });

  it('scores a 300-turn call on every template with valid evidence, deterministically', async () => {
    const turns = longCall();
    const scorer = createRulesScorer();
    for (const template of SCORECARD_TEMPLATES) {
      const input = { turns, repLabel: REP, callType: template.callTypes[0]!, criteria: template.criteria };
      const results = await scorer.scoreCriteria(input);
      expect(results.map((r) => r.key)).toEqual(template.criteria.map((c) => c.key));
      for (const r of results) {
        if (r.na) expect(r.score).toBeNull();
        else expect(r.score! >= 0 && r.score! <= 1).toBe(true);
      }
      expectValidEvidence(turns, results);
      expect(results.some((r) => r.evidence.length > 0)).toBe(true);
      // Same scorer (cached plan) and a fresh one give identical results.
      expect(await scorer.scoreCriteria(input)).toEqual(results);
      expect(await createRulesScorer().scoreCriteria(structuredClone(input))).toEqual(results);
    }
  });

  it('quotes only exact substrings of the cited rep turn for messy text', async () => {
    const turns = [
      customer('Price?'),
      rep(
        '  Well…   the VALUE here?!   Next   step: a calendar invite 😀 for Tuesday.\n\nWhat do you think?  ',
        12,
      ),
      rep(`${'😀'.repeat(150)} next step ${'😀'.repeat(150)}`, 99),
    ];
    const criteria = SCORECARD_TEMPLATES.flatMap((t) => t.criteria);
    const unique = criteria.filter((c, i) => criteria.findIndex((d) => d.key === c.key) === i);
    const results = await createRulesScorer().scoreCriteria({
      turns,
      repLabel: REP,
      callType: null,
      criteria: unique,
    });
    expectValidEvidence(turns, results);
    const nextSteps = results.find((r) => r.key === 'agrees_next_steps')!;
    expect(nextSteps.evidence.map((e) => e.turn_index)).toEqual([1, 2]);
    // A clip through one long run of emoji must not split a surrogate pair.
    expect(nextSteps.evidence[1]!.quote).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });
});
