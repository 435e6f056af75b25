import { describe, expect, it } from 'vitest';
import { normalizeForCues } from './cue-text.js';

describe('normalizeForCues', () => {
  it('lower-cases and folds typographic apostrophes', () => {
    expect(normalizeForCues('I\u2019ll Send It')).toBe("i'll send it");
  });

  it('drops hesitation fillers and keeps one copy of a stuttered word', () => {
    expect(
      normalizeForCues("so i i've got um anita she's our uh solutions engineer to to to the the deep stuff"),
    ).toBe("so i've got anita she's our solutions engineer to the deep stuff");
  });

  it('leaves words that only contain filler letters alone', () => {
    expect(normalizeForCues('Umbrella, humming, error, the theory')).toBe(
      'umbrella, humming, error, the theory',
    );
  });
});
