import { describe, expect, it } from 'vitest';
import type { Criterion } from './criteria.js';
import { compareCriteria } from './criteria-changes.js';

const agenda: Criterion = {
  key: 'agenda',
  title: 'Sets an agenda',
  weight: 1,
  check: { type: 'phrases', any: ['agenda'], min: 1 },
};
const questions: Criterion = {
  key: 'questions',
  title: 'Asks open questions',
  weight: 2,
  check: { type: 'questions', min: 3 },
};

describe('compareCriteria', () => {
  it('names criteria added, removed and changed, by key, with the fields that differ', () => {
    const next: Criterion[] = [
      { ...agenda, weight: 3, check: { type: 'phrases', any: ['agenda', 'plan for today'], min: 1 } },
      { key: 'steps', title: 'Agrees next steps', check: { type: 'phrases', any: ['next step'], min: 1 } },
    ];
    expect(compareCriteria([agenda, questions], next)).toEqual({
      added: [{ key: 'steps', title: 'Agrees next steps' }],
      removed: [{ key: 'questions', title: 'Asks open questions' }],
      changed: [{ key: 'agenda', title: 'Sets an agenda', fields: ['weight', 'check'] }],
    });
  });

  it('finds nothing between equal versions, whatever their order', () => {
    expect(compareCriteria([agenda, questions], [questions, agenda])).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
  });
});
