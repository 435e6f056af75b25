import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { CriteriaSchema, validateCriteria, type Criterion } from './criteria.js';

const phrases = (key: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  key,
  title: 'Agrees next steps',
  check: { type: 'phrases', any: ['next step'] },
  ...extra,
});

function errorsOf(value: unknown): string[] {
  const result = validateCriteria(value);
  if (result.ok) throw new Error('expected validation to fail');
  return result.errors;
}

describe('validateCriteria', () => {
  it('accepts every check type and applies_when kind', () => {
    const criteria: Criterion[] = [
      {
        key: 'next_steps',
        title: 'Agrees concrete next steps',
        description: 'What good looks like',
        weight: 2,
        applies_when: {
          customer_mentions_any: ['price'],
          rep_mentions_any: ['demo'],
          call_types: ['discovery'],
        },
        check: { type: 'phrases', any: ['next step', 'calendar invite'], min: 1 },
      },
      { key: 'questions', title: 'Asks', check: { type: 'questions', min: 3, open_only: true } },
      { key: 'ratio', title: 'Ratio', check: { type: 'talk_ratio', min: 0.35, max: 0.6 } },
      { key: 'mono', title: 'Mono', check: { type: 'longest_monologue', max_words: 150 } },
      { key: 'cust', title: 'Cust', check: { type: 'customer_talk', min_share: 0.4 } },
      {
        key: 'early_min',
        title: 'Early',
        check: { type: 'mentions_before', any: ['reason'], before_minute: 1 },
      },
      {
        key: 'early_turn',
        title: 'Early',
        check: { type: 'mentions_before', any: ['reason'], before_turn: 3 },
      },
    ];
    const result = validateCriteria(criteria);
    expect(result.ok).toBe(true);
    expect(Value.Check(CriteriaSchema, criteria)).toBe(true);
  });

  it('fills in the defaults (weight 1, phrases min 1) without touching the input', () => {
    const input = [phrases('next_steps')];
    const result = validateCriteria(input);
    expect(result).toEqual({
      ok: true,
      criteria: [
        {
          key: 'next_steps',
          title: 'Agrees next steps',
          weight: 1,
          check: { type: 'phrases', any: ['next step'], min: 1 },
        },
      ],
    });
    expect(input[0]).not.toHaveProperty('weight');
  });

  it('accepts an empty list (an empty scorecard is a skip reason, not invalid)', () => {
    expect(validateCriteria([])).toEqual({ ok: true, criteria: [] });
  });

  it('refuses a non-array and more than 50 criteria', () => {
    expect(errorsOf({})).toEqual(['criteria: must be an array']);
    const many = Array.from({ length: 51 }, (_, i) => phrases(`c${i}`));
    expect(errorsOf(many)).toEqual(['criteria: at most 50 criteria']);
  });

  it('names the field of each schema failure', () => {
    const errors = errorsOf([
      phrases('Bad-Key', { title: '', weight: 0, description: 'x'.repeat(2001), colour: 'red' }),
    ]);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^criteria\[0\]\.key: /),
        expect.stringMatching(/^criteria\[0\]\.title: /),
        expect.stringMatching(/^criteria\[0\]\.weight: /),
        expect.stringMatching(/^criteria\[0\]\.description: /),
        expect.stringMatching(/^criteria\[0\]\.colour: /),
      ]),
    );
    expect(errors).toHaveLength(5);
  });

  it('validates the check against the schema of its type', () => {
    expect(errorsOf([phrases('a', { check: { type: 'phrases', any: ['ok', '   '], min: 0 } })])).toEqual([
      expect.stringMatching(/^criteria\[0\]\.check\.any\[1\]: /),
      expect.stringMatching(/^criteria\[0\]\.check\.min: /),
    ]);
    expect(errorsOf([phrases('a', { check: { type: 'questions', min: 1.5 } })])).toEqual([
      expect.stringMatching(/^criteria\[0\]\.check\.min: /),
    ]);
    expect(errorsOf([phrases('a', { check: { type: 'talk_ratio', min: 0.2, max: 1.2 } })])).toEqual([
      expect.stringMatching(/^criteria\[0\]\.check\.max: /),
    ]);
    expect(
      errorsOf([phrases('a', { check: { type: 'longest_monologue', max_words: 100, extra: 1 } })]),
    ).toEqual([expect.stringMatching(/^criteria\[0\]\.check\.extra: /)]);
  });

  it('refuses an unknown or missing check type, and a missing check', () => {
    const types =
      /must be one of phrases, questions, talk_ratio, longest_monologue, customer_talk, mentions_before/;
    expect(errorsOf([phrases('a', { check: { type: 'sentiment' } })])).toEqual([
      expect.stringMatching(types),
    ]);
    expect(errorsOf([phrases('a', { check: { type: 'toString' } })])).toEqual([expect.stringMatching(types)]);
    expect(errorsOf([phrases('a', { check: 'phrases' })])).toEqual(['criteria[0].check: must be an object']);
    expect(errorsOf([{ key: 'a', title: 'A' }])).toEqual([expect.stringMatching(/^criteria\[0\]\.check: /)]);
  });

  it('requires exactly one of before_minute and before_turn', () => {
    const both = { type: 'mentions_before', any: ['reason'], before_minute: 1, before_turn: 3 };
    const neither = { type: 'mentions_before', any: ['reason'] };
    expect(errorsOf([phrases('a', { check: both })])).toEqual([
      'criteria[0].check: give exactly one of before_minute, before_turn',
    ]);
    expect(errorsOf([phrases('a', { check: neither })])).toEqual([
      'criteria[0].check: give exactly one of before_minute, before_turn',
    ]);
  });

  it('requires talk_ratio min not to exceed max', () => {
    expect(errorsOf([phrases('a', { check: { type: 'talk_ratio', min: 0.7, max: 0.3 } })])).toEqual([
      'criteria[0].check.min: must not exceed max',
    ]);
  });

  it('requires unique keys', () => {
    expect(errorsOf([phrases('a'), phrases('b'), phrases('a')])).toEqual([
      'criteria[2].key: "a" is already used by criteria[0]',
    ]);
  });

  it('refuses an unknown applies_when condition and an empty condition list', () => {
    expect(errorsOf([phrases('a', { applies_when: { speaker_is: ['x'] } })])).toEqual([
      expect.stringMatching(/^criteria\[0\]\.applies_when\.speaker_is: /),
    ]);
    expect(errorsOf([phrases('a', { applies_when: { call_types: [] } })])).toEqual([
      expect.stringMatching(/^criteria\[0\]\.applies_when\.call_types: /),
    ]);
  });

  it('refuses a call type outside the contract in applies_when.call_types', () => {
    expect(errorsOf([phrases('a', { applies_when: { call_types: ['discovery', 'negotation'] } })])).toEqual([
      expect.stringMatching(
        /^criteria\[0\]\.applies_when\.call_types\[1\]: "negotation" is not a call type \(one of discovery, /,
      ),
    ]);
  });

  it('reports every failing criterion, not just the first', () => {
    const errors = errorsOf([phrases('ok'), 'nope', phrases('a', { weight: -1 })]);
    expect(errors).toEqual([
      'criteria[1]: must be an object',
      expect.stringMatching(/^criteria\[2\]\.weight: /),
    ]);
  });
});
