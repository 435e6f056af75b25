import { describe, expect, it } from 'vitest';
import { combineCueFamilies, forEachCue } from './cue-patterns.js';

function cues(patterns: string[], text: string, keep?: (family: number) => boolean) {
  const found: [number, string][] = [];
  forEachCue(combineCueFamilies(patterns, keep), text, (family, phrase) => found.push([family, phrase]));
  return found;
}

describe('combined cue families', () => {
  it('finds each cue once, leftmost first, the first family on a tie, resuming after the match', () => {
    expect(
      cues(['\\bnext steps?\\b', '\\bnext\\b|\\bsteps\\b', '\\bpricing\\b'], 'pricing and next steps'),
    ).toEqual([
      [2, 'pricing'],
      [0, 'next steps'],
    ]);
  });

  it('behaves as one pattern when the families are split over several expressions', () => {
    const filler = `(?:${'x'.repeat(9_000)})`;
    const patterns = [`\\bbudget\\b|${filler}`, `\\bbudget approved\\b|${filler}`, '\\bapproved\\b'];
    const groups = combineCueFamilies(patterns);
    expect(groups.length).toBeGreaterThan(1);
    expect(cues(patterns, 'budget approved')).toEqual([
      [0, 'budget'],
      [2, 'approved'],
    ]);
  });

  it('leaves out the families that keep refuses, keeping the indexes of the others', () => {
    expect(cues(['\\bdemo\\b', '\\btrial\\b'], 'a demo and a trial', (family) => family !== 0)).toEqual([
      [1, 'trial'],
    ]);
  });

  it('refuses a combined pattern past the size V8 optimises', () => {
    expect(() => combineCueFamilies([`\\b(?:${'y'.repeat(21_000)})`])).toThrow(/split or shorten/);
  });
});
