/**
 * Pure: the text form the cue patterns of speaker inference and call-type classification run on. Lower case,
 * typographic apostrophes folded to "'", and the disfluencies of speech-to-text output removed, so that
 * "she's our um solutions engineer" and "i i've got" read like written text: hesitation fillers (um, uh, erm, hmm)
 * are dropped and a word repeated back to back ("the the", "to to") is kept once. Linear time: each pattern is a
 * single pass without nested quantifiers.
 */
const APOSTROPHES = /[\u2018\u2019\u02bc]/g;
/** A filler with its trailing comma and space, or the first of two identical words in a row (kept: the second). */
const DISFLUENCY = /\b(?:(?:u+m+|u+h+|e+r+m+|hm+|mhm)\b,? ?|([a-z']+) (?=\1\b))/g;

export function normalizeForCues(text: string): string {
  const lower = text.toLowerCase();
  const folded =
    lower.includes('\u2019') || lower.includes('\u2018') || lower.includes('\u02bc')
      ? lower.replace(APOSTROPHES, "'")
      : lower;
  return folded.replace(DISFLUENCY, '');
}
