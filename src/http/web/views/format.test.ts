import { describe, expect, it } from 'vitest';
import { speakerReason } from './format.js';

describe('speakerReason', () => {
  it('names the strongest seller-side phrases of a phrase reading, with counts', () => {
    const signals = {
      method: 'heuristic',
      margin: 6,
      winner: {
        label: 'B',
        cues: {
          'seller.ask_commitment': 2,
          'buyer.own_purchase': 5,
          'seller.agenda': 1,
          'seller.offers_action': 3,
        },
      },
      runner_up: null,
    };
    expect(speakerReason(signals)).toBe('Seller-side phrases: offers action ×3, ask commitment ×2, agenda.');
    expect(speakerReason({ ...signals, decided_by: 'runs_call' })).toMatch(/\. They run the call \(agenda/);
  });

  it('gives the word model and the language model their ratings', () => {
    expect(speakerReason({ decided_by: 'word_model', rep_likelihood: 0.93, strongest_other: 0.05 })).toBe(
      "Their words sound like the rep's (93%); no other speaker's do (at most 5%).",
    );
    expect(
      speakerReason({
        decided_by: 'word_model',
        rep_likelihood: 0.91,
        strongest_other: 0.04,
        phrases_pick: 'Speaker 3',
      }),
    ).toBe(
      "Their words sound like the rep's (91%); no other speaker's do (at most 4%). The phrases pointed to Speaker 3, whose words do not.",
    );
    expect(
      speakerReason({
        decided_by: 'word_model',
        rep_likelihood: 0.95,
        strongest_other: 0.03,
        phrases: 'undecidable',
      }),
    ).toBe(
      "Their words sound like the rep's (95%); no other speaker's do (at most 3%). The phrases could not tell two possible reps apart.",
    );
    expect(speakerReason({ method: 'model', model: 'm', confidence: 0.8 })).toBe(
      'Chosen by the language model (80%).',
    );
  });

  it('is null for absent or unknown signals', () => {
    expect(speakerReason(null)).toBeNull();
    expect(speakerReason('text')).toBeNull();
    expect(speakerReason({ method: 'heuristic', winner: { cues: { 'buyer.own_purchase': 1 } } })).toBeNull();
    expect(speakerReason({ method: 'other' })).toBeNull();
  });
});
