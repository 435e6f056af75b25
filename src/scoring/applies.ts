/**
 * Pure: phrase matching and `applies_when` (DESIGN section 5), shared by every scorer so that whether a criterion
 * applies to a call is decided the same way, deterministically, whichever scorer then judges it. A criterion whose
 * condition fails is N/A; every condition given must hold.
 */
import type { Turn } from '../ingest/transcript.js';
import type { AppliesWhen, Criterion } from './criteria.js';
import { normaliseSpeaker } from './scorers/scorer.js';

const WORD_CLASS = '[\\p{L}\\p{N}_]';
const STARTS_WITH_WORD = new RegExp(`^${WORD_CLASS}`, 'u');
const ENDS_WITH_WORD = new RegExp(`${WORD_CLASS}$`, 'u');

/** A criterion's applies_when, compiled once per scorecard. */
export interface AppliesGate {
  callTypes: ReadonlySet<string> | null;
  /** Must match some customer-side turn. */
  customer: RegExp | null;
  /** Must match some rep turn. */
  rep: RegExp | null;
}

export function compileAppliesWhen(when: AppliesWhen | undefined): AppliesGate {
  return {
    callTypes: when?.call_types ? new Set(when.call_types) : null,
    customer: when?.customer_mentions_any ? phraseRegex(when.customer_mentions_any, 'iu') : null,
    rep: when?.rep_mentions_any ? phraseRegex(when.rep_mentions_any, 'iu') : null,
  };
}

/**
 * Why the criterion does not apply (the N/A rationale shown to managers), or null when it applies. Conditions are
 * checked in the order call type, customer mention, rep mention; the first failing one is named.
 */
export function notApplicableReason(
  gate: AppliesGate,
  when: AppliesWhen | undefined,
  seen: { callType: string | null; customerSaid: boolean; repSaid: boolean },
): string | null {
  if (gate.callTypes && (seen.callType === null || !gate.callTypes.has(seen.callType))) {
    return `Not applicable: only for ${[...gate.callTypes].join(', ')} calls (this call: ${seen.callType ?? 'unknown'}).`;
  }
  if (gate.customer && !seen.customerSaid) {
    return `Not applicable: the customer did not mention ${listPhrases(when?.customer_mentions_any ?? [])}.`;
  }
  if (gate.rep && !seen.repSaid) {
    return `Not applicable: the rep did not mention ${listPhrases(when?.rep_mentions_any ?? [])}.`;
  }
  return null;
}

/**
 * One pass over the turns for scorers that make no pass of their own: per criterion (in order) its N/A rationale,
 * or null when it applies. Every label other than the rep's is the customer side.
 */
export function notApplicableReasons(
  criteria: readonly Criterion[],
  input: { turns: readonly Turn[]; repLabel: string; callType: string | null },
): (string | null)[] {
  const gates = criteria.map((criterion) => compileAppliesWhen(criterion.applies_when));
  const customerSaid = gates.map(() => false);
  const repSaid = gates.map(() => false);
  const repLabel = normaliseSpeaker(input.repLabel);
  for (const turn of input.turns) {
    const rep = normaliseSpeaker(turn.speaker) === repLabel;
    gates.forEach((gate, i) => {
      if (rep) {
        if (gate.rep && !repSaid[i]) repSaid[i] = gate.rep.test(turn.text);
      } else if (gate.customer && !customerSaid[i]) {
        customerSaid[i] = gate.customer.test(turn.text);
      }
    });
  }
  return gates.map((gate, i) =>
    notApplicableReason(gate, criteria[i]!.applies_when, {
      callType: input.callType,
      customerSaid: customerSaid[i]!,
      repSaid: repSaid[i]!,
    }),
  );
}

/**
 * One regex for a list of phrases: case-insensitive, whole words at the phrase's word edges, any run of whitespace
 * between its words, straight and curly apostrophes alike, and common contractions either way ("I'm" / "I am"), as
 * transcripts spell them both ways. Longer phrases first so a match takes the longest.
 */
export function phraseRegex(phrases: readonly string[], flags: string): RegExp {
  const variants = phrases.flatMap((p) => {
    const phrase = p.trim().replace(/\s+/g, ' ');
    return [phrase, contract(phrase), expand(phrase)];
  });
  // Phrases grouped by the word edges they need, so each boundary assertion appears once per group: a
  // lookbehind on \p{L} per alternative makes the regex many times slower to compile.
  const groups = new Map<string, string[]>();
  for (const phrase of [...new Set(variants)].sort((a, b) => b.length - a.length)) {
    const head = STARTS_WITH_WORD.test(phrase) ? `(?<!${WORD_CLASS})` : '';
    const tail = ENDS_WITH_WORD.test(phrase) ? `(?!${WORD_CLASS})` : '';
    const body = phrase
      .split(' ')
      .map((word) =>
        word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/['\u2018\u2019]/g, "['\u2018\u2019]"),
      )
      .join('\\s+');
    const edges = `${head}\u0000${tail}`;
    groups.set(edges, [...(groups.get(edges) ?? []), body]);
  }
  const alternatives = [...groups].map(([edges, bodies]) =>
    edges.replace('\u0000', `(?:${bodies.join('|')})`),
  );
  return new RegExp(alternatives.join('|'), flags);
}

const CONTRACTIONS: [short: string, long: string][] = [
  ["i'm", 'i am'],
  ["i'd", 'i would'],
  ["i'll", 'i will'],
  ["i've", 'i have'],
  ["we're", 'we are'],
  ["we'll", 'we will'],
  ["we've", 'we have'],
  ["you're", 'you are'],
  ["you'll", 'you will'],
  ["you've", 'you have'],
  ["they're", 'they are'],
  ["it's", 'it is'],
  ["that's", 'that is'],
  ["there's", 'there is'],
  ["what's", 'what is'],
  ["how's", 'how is'],
  ["let's", 'let us'],
  ["don't", 'do not'],
  ["doesn't", 'does not'],
  ["didn't", 'did not'],
  ["isn't", 'is not'],
  ["aren't", 'are not'],
  ["can't", 'cannot'],
  ["won't", 'will not'],
];
const wordsPattern = (text: string): string => text.replace(/'/g, "['\u2018\u2019]").replace(/ /g, '\\s+');
const SHORT_FORMS = CONTRACTIONS.map(
  ([short, long]) => [new RegExp(`\\b${wordsPattern(short)}\\b`, 'giu'), long] as const,
);
const LONG_FORMS = CONTRACTIONS.map(
  ([short, long]) => [new RegExp(`\\b${wordsPattern(long)}\\b`, 'giu'), short] as const,
);

function expand(phrase: string): string {
  return SHORT_FORMS.reduce((text, [pattern, long]) => text.replace(pattern, long), phrase);
}

function contract(phrase: string): string {
  return LONG_FORMS.reduce((text, [pattern, short]) => text.replace(pattern, short), phrase);
}

/** `any of "a", "b", "c"` (at most five shown). */
export function listPhrases(phrases: readonly string[]): string {
  const shown = phrases.slice(0, 5).map((p) => `"${p}"`);
  const more = phrases.length > shown.length ? ` or ${phrases.length - shown.length} more` : '';
  return `any of ${shown.join(', ')}${more}`;
}
