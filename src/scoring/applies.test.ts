import { describe, expect, it } from 'vitest';
import type { Turn } from '../ingest/transcript.js';
import { notApplicableReasons } from './applies.js';
import type { Criterion } from './criteria.js';
import { createRulesScorer } from './scorers/rules.js';

const turn = (speaker: string, text: string): Turn => ({ speaker, text, start_ms: null });
const check: Criterion['check'] = { type: 'phrases', any: ['value'] };
const criteria: Criterion[] = [
  { key: 'always', title: 'Always', check },
  { key: 'price', title: 'Price', applies_when: { customer_mentions_any: ['price'] }, check },
  { key: 'rep_price', title: 'Rep price', applies_when: { rep_mentions_any: ['price'] }, check },
  { key: 'demo_only', title: 'Demo', applies_when: { call_types: ['demo'] }, check },
  { key: 'budget', title: 'Budget', applies_when: { customer_mentions_any: ["I'm on a budget"] }, check },
];
// The customer says "price" and "I am on a budget"; the rep never says "price".
const turns = [
  turn('Rep', 'Hello, what matters to you?'),
  turn('Buyer', 'The PRICE, since I am on a budget.'),
  turn('rep ', 'Our value is clear.'),
];

describe('notApplicableReasons', () => {
  it('decides applies_when from the right side of the call, contractions and case aside', () => {
    const reasons = notApplicableReasons(criteria, { turns, repLabel: 'REP', callType: 'discovery' });
    expect(reasons).toEqual([
      null,
      null,
      'Not applicable: the rep did not mention any of "price".',
      'Not applicable: only for demo calls (this call: discovery).',
      null,
    ]);
  });

  it('agrees with the rules scorer on which criteria are N/A', async () => {
    for (const callType of ['discovery', 'demo', null]) {
      const reasons = notApplicableReasons(criteria, { turns, repLabel: 'Rep', callType });
      const results = await createRulesScorer().scoreCriteria({ turns, repLabel: 'Rep', callType, criteria });
      expect(results.map((r) => (r.na ? r.rationale : null))).toEqual(reasons);
    }
  });
});
