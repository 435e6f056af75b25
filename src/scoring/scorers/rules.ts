/**
 * Pure: the default, deterministic scorer. A scorecard compiles once into regexes and thresholds (cached by its
 * JSON), then one pass over the turns gathers every tally the checks need. Only rep turns are scored or quoted;
 * customer turns count only for `customer_mentions_any` and the talk shares, and the turns of the rep's colleagues
 * and others the participants name (sidesOf) only for the talk shares.
 */
import { startMsAt, type Turn } from '../../ingest/transcript.js';
import { compileAppliesWhen, listPhrases, notApplicableReason, phraseRegex } from '../applies.js';
import type { Criterion } from '../criteria.js';
import {
  normaliseSpeaker,
  wordCount,
  type CriterionResult,
  type Evidence,
  type ScoreInput,
  type Scorer,
} from './scorer.js';

const MAX_EVIDENCE = 3;
/** Quotes are a sentence, or a clip of about this many UTF-16 units around the match. */
const QUOTE_CHARS = 200;
/** talk_ratio falls from 1 to 0 over this distance outside [min, max]. */
const RATIO_FALLOFF = 0.25;
/** Speaking pace used to place mentions in time when the transcript has no timestamps at all. */
const WORDS_PER_MINUTE = 150;
const PLAN_CACHE_SIZE = 64;

/** Sentence punctuation: `.`, `?` or `!`, closing quotes or brackets, then a space or the end (not "2.5", "acme.com"). */
const SENTENCE_BOUNDARY = String.raw`[.?!]+["'\u201d\u2019)\]]*(?=\s|$)`;
const SENTENCE_END = new RegExp(SENTENCE_BOUNDARY, 'u');
const QUESTION_END = /\?["'\u201d\u2019)\]]*$/u;
// Fillers a speaker often puts before the question proper ("So, what …", "Okay and how …").
const LEAD_IN = String.raw`^(?:(?:so|and|but|okay|ok|well|um|uh|right|alright|now|yeah|great|cool|sure|then)\b[\s,.-]*)*`;
const OPEN_PROMPT = String.raw`(?:tell me|describe|explain|walk me through|talk me through|help me understand)\b`;
/** Open questions invite a free answer. */
const OPEN_OPENING = new RegExp(
  `${LEAD_IN}(?:(?:what|how|why)\\b|${OPEN_PROMPT}|(?:can|could|would|will) you (?:please )?${OPEN_PROMPT})`,
  'iu',
);
/** A sentence that asks for an open answer without a question mark ("Tell me about your process."). */
const OPEN_PROMPT_OPENING = new RegExp(`${LEAD_IN}${OPEN_PROMPT}`, 'iu');
/** Used only when the transcript has no sentence punctuation at all. Auxiliaries need a subject after them. */
const QUESTION_OPENING = new RegExp(
  `${LEAD_IN}(?:(?:who|whom|whose|what|when|where|why|how|which)\\b|${OPEN_PROMPT}|` +
    String.raw`(?:can|could|would|should|do|does|did|is|are|was|were|will|have|has|had)\s+` +
    String.raw`(?:you|we|i|they|he|she|it|that|this|there|your|the|anyone|someone|anything)\b)`,
  'iu',
);

type CompiledCheck =
  | { type: 'phrases'; regex: RegExp; min: number }
  | { type: 'questions'; min: number; openOnly: boolean }
  | { type: 'talk_ratio'; min: number; max: number }
  | { type: 'longest_monologue'; maxWords: number }
  | { type: 'customer_talk'; minShare: number }
  | { type: 'mentions_before'; regex: RegExp; beforeMinute: number | null; beforeTurn: number | null };

interface PlanItem {
  criterion: Criterion;
  weight: number;
  callTypes: ReadonlySet<string> | null;
  customerGate: RegExp | null;
  repGate: RegExp | null;
  check: CompiledCheck;
}

interface Plan {
  items: PlanItem[];
  needsQuestions: boolean;
}

interface Range {
  start: number;
  end: number;
}

/** What one pass over the turns learns for one criterion. */
interface ItemTally {
  customerGateHit: boolean;
  repGateHit: boolean;
  count: number;
  phrasesSaid: Map<string, number>;
  evidence: Evidence[];
  /** mentions_before: the first rep mention. */
  /** stampedMs: the turn's time, or the last one before it; null before the transcript's first timestamp. */
  first: { turnIndex: number; stampedMs: number | null; estimatedMs: number } | null;
}

interface QuestionTally {
  count: number;
  evidence: Evidence[];
}

export function createRulesScorer(): Scorer {
  const plans = new Map<string, Plan>();

  function planFor(criteria: Criterion[]): Plan {
    const cacheKey = JSON.stringify(criteria);
    const cached = plans.get(cacheKey);
    if (cached) {
      // Re-insert so the map's order is least recently used first.
      plans.delete(cacheKey);
      plans.set(cacheKey, cached);
      return cached;
    }
    const plan = compilePlan(criteria);
    plans.set(cacheKey, plan);
    if (plans.size > PLAN_CACHE_SIZE) plans.delete(plans.keys().next().value as string);
    return plan;
  }

  return {
    name: 'rules',
    async scoreCriteria(input: ScoreInput): Promise<CriterionResult[]> {
      return scoreWithPlan(planFor(input.criteria), input);
    },
  };
}

function compilePlan(criteria: Criterion[]): Plan {
  const items = criteria.map((criterion): PlanItem => {
    const gate = compileAppliesWhen(criterion.applies_when);
    return {
      criterion,
      weight: criterion.weight ?? 1,
      callTypes: gate.callTypes,
      customerGate: gate.customer,
      repGate: gate.rep,
      check: compileCheck(criterion.check),
    };
  });
  return { items, needsQuestions: items.some((item) => item.check.type === 'questions') };
}

function compileCheck(check: Criterion['check']): CompiledCheck {
  switch (check.type) {
    case 'phrases':
      return { type: 'phrases', regex: phraseRegex(check.any, 'giu'), min: check.min ?? 1 };
    case 'questions':
      return { type: 'questions', min: check.min, openOnly: check.open_only ?? false };
    case 'talk_ratio':
      return { type: 'talk_ratio', min: check.min, max: check.max };
    case 'longest_monologue':
      return { type: 'longest_monologue', maxWords: check.max_words };
    case 'customer_talk':
      return { type: 'customer_talk', minShare: check.min_share };
    case 'mentions_before':
      return {
        type: 'mentions_before',
        regex: phraseRegex(check.any, 'iu'),
        beforeMinute: check.before_minute ?? null,
        beforeTurn: check.before_turn ?? null,
      };
  }
}

function scoreWithPlan(plan: Plan, input: ScoreInput): CriterionResult[] {
  const { turns } = input;
  const repLabel = normaliseSpeaker(input.repLabel);
  const isRep = new Map<string, boolean>();
  const tallies: ItemTally[] = plan.items.map(() => ({
    customerGateHit: false,
    repGateHit: false,
    count: 0,
    phrasesSaid: new Map(),
    evidence: [],
    first: null,
  }));
  // Questions are tallied both ways; which way counts is known only once the whole transcript is read.
  const punctuated = { all: newQuestionTally(), open: newQuestionTally() };
  const unpunctuated = { all: newQuestionTally(), open: newQuestionTally() };

  let hasPunctuation = false;
  let hasTimestamps = false;
  let lastStampedMs: number | null = null;
  let wordsSoFar = 0;
  let repWords = 0;
  let customerWords = 0;
  let longest = { turnIndex: -1, words: 0 };

  for (let turnIndex = 0; turnIndex < turns.length; turnIndex++) {
    const turn = turns[turnIndex]!;
    const { text } = turn;
    const words = wordCount(text);
    if (!hasPunctuation && SENTENCE_END.test(text)) hasPunctuation = true;
    const turnStampedMs = startMsAt(turn, text.length);
    if (turnStampedMs !== null) hasTimestamps = true;
    let rep = isRep.get(turn.speaker);
    if (rep === undefined) {
      rep = normaliseSpeaker(turn.speaker) === repLabel;
      isRep.set(turn.speaker, rep);
    }

    if (!rep) {
      customerWords += words;
      plan.items.forEach((item, i) => {
        const tally = tallies[i]!;
        if (item.customerGate && !tally.customerGateHit) tally.customerGateHit = item.customerGate.test(text);
      });
      wordsSoFar += words;
      lastStampedMs = turnStampedMs ?? lastStampedMs;
      continue;
    }

    repWords += words;
    if (words > longest.words) longest = { turnIndex, words };
    const quotes = new TurnQuotes(turn, turnIndex);

    plan.items.forEach((item, i) => {
      const tally = tallies[i]!;
      if (item.repGate && !tally.repGateHit) tally.repGateHit = item.repGate.test(text);
      const check = item.check;
      if (check.type === 'phrases') {
        check.regex.lastIndex = 0;
        for (let match = check.regex.exec(text); match; match = check.regex.exec(text)) {
          tally.count++;
          const said = normalisePhrase(match[0]);
          tally.phrasesSaid.set(said, (tally.phrasesSaid.get(said) ?? 0) + 1);
          addEvidence(tally.evidence, quotes.around(match.index, match.index + match[0].length));
        }
      } else if (check.type === 'mentions_before' && !tally.first) {
        const match = check.regex.exec(text);
        if (match) {
          // Before the first timestamp, the time is estimated from the words as in an untimed transcript.
          const stampedMs = startMsAt(turn, match.index) ?? lastStampedMs;
          const estimatedMs = (wordsSoFar / WORDS_PER_MINUTE) * 60_000;
          tally.first = { turnIndex, stampedMs, estimatedMs };
          addEvidence(tally.evidence, quotes.around(match.index, match.index + match[0].length));
        }
      }
    });

    if (plan.needsQuestions) {
      for (const sentence of quotes.sentences()) {
        const asked = text.slice(sentence.start, sentence.end);
        const marked = QUESTION_END.test(asked);
        if (!marked && !OPEN_PROMPT_OPENING.test(asked)) continue;
        // A long question is quoted by its end, where the question mark is; a prompt by its opening words.
        const at = marked ? sentence.end : sentence.start;
        const quote = quotes.clip(sentence, { start: at, end: at });
        countQuestion(punctuated.all, quote);
        if (OPEN_OPENING.test(asked)) countQuestion(punctuated.open, quote);
      }
      if (QUESTION_OPENING.test(text)) {
        const opening = quotes.opening();
        countQuestion(unpunctuated.all, opening);
        if (OPEN_OPENING.test(text)) countQuestion(unpunctuated.open, opening);
      }
    }
    wordsSoFar += words;
    lastStampedMs = turnStampedMs ?? lastStampedMs;
  }

  const questions = hasPunctuation ? punctuated : unpunctuated;
  const totalWords = repWords + customerWords;

  return plan.items.map((item, i): CriterionResult => {
    const tally = tallies[i]!;
    const { criterion } = item;
    const base = { key: criterion.key, title: criterion.title, weight: item.weight };
    const na = (rationale: string): CriterionResult => ({
      ...base,
      score: null,
      na: true,
      evidence: [],
      rationale,
    });
    const scored = (
      score: number,
      rationale: string,
      evidence: Evidence[] = tally.evidence,
    ): CriterionResult => ({
      ...base,
      // NaN cannot come from validated criteria; it still must never reach the call score.
      score: Number.isNaN(score) ? 0 : Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000,
      na: false,
      evidence,
      rationale,
    });

    const notApplicable = notApplicableReason(
      { callTypes: item.callTypes, customer: item.customerGate, rep: item.repGate },
      criterion.applies_when,
      { callType: input.callType, customerSaid: tally.customerGateHit, repSaid: tally.repGateHit },
    );
    if (notApplicable) return na(notApplicable);

    const check = item.check;
    switch (check.type) {
      case 'phrases': {
        if (tally.count === 0) return scored(0, `The rep did not say ${listPhrases(phrasesOf(criterion))}.`);
        const said = [...tally.phrasesSaid].map(([p, n]) => (n > 1 ? `"${p}" ×${n}` : `"${p}"`)).join(', ');
        return scored(
          tally.count / check.min,
          `The rep said ${said}: ${times(tally.count)}, ${check.min} needed.`,
        );
      }
      case 'questions': {
        const asked = check.openOnly ? questions.open : questions.all;
        const kind = check.openOnly ? 'open question' : 'question';
        const how = hasPunctuation
          ? ''
          : ' (the transcript has no punctuation, so questions were found by their opening words)';
        return scored(
          asked.count / check.min,
          `The rep asked ${plural(asked.count, kind)}, ${check.min} needed${how}.`,
          asked.evidence,
        );
      }
      case 'talk_ratio': {
        if (totalWords === 0) return na('Not applicable: nobody spoke.');
        const share = repWords / totalWords;
        const distance = share < check.min ? check.min - share : share > check.max ? share - check.max : 0;
        return scored(
          1 - distance / RATIO_FALLOFF,
          `The rep spoke ${percent(share)} of the words (target ${percent(check.min)}–${percent(check.max)}).`,
          [],
        );
      }
      case 'longest_monologue': {
        const turn = turns[longest.turnIndex];
        const evidence = turn ? [new TurnQuotes(turn, longest.turnIndex).opening()] : [];
        const over = longest.words - check.maxWords;
        return scored(
          over <= 0 ? 1 : 1 - over / check.maxWords,
          `The rep's longest turn ran ${plural(longest.words, 'word')} (at most ${check.maxWords}).`,
          evidence,
        );
      }
      case 'customer_talk': {
        if (totalWords === 0) return na('Not applicable: nobody spoke.');
        const share = customerWords / totalWords;
        return scored(
          check.minShare === 0 ? 1 : share / check.minShare,
          `The customer spoke ${percent(share)} of the words (at least ${percent(check.minShare)} wanted).`,
          [],
        );
      }
      case 'mentions_before':
        return scoreMentionBefore(check, tally, hasTimestamps, criterion, scored);
    }
  });
}

function scoreMentionBefore(
  check: Extract<CompiledCheck, { type: 'mentions_before' }>,
  tally: ItemTally,
  stamped: boolean,
  criterion: Criterion,
  scored: (score: number, rationale: string) => CriterionResult,
): CriterionResult {
  const first = tally.first;
  if (!first) return scored(0, `The rep never said ${listPhrases(phrasesOf(criterion))}.`);
  if (check.beforeTurn !== null) {
    const at = first.turnIndex + 1;
    const score = at <= check.beforeTurn ? 1 : lateCredit(at, check.beforeTurn);
    return scored(
      score,
      `First said in turn ${at} of the call (within the first ${check.beforeTurn} wanted).`,
    );
  }
  const deadline = check.beforeMinute ?? 0;
  // Null without a timestamp at or before the mention, which is always so in an untimed transcript.
  const ms = first.stampedMs ?? first.estimatedMs;
  const minute = ms / 60_000;
  const estimate =
    first.stampedMs !== null
      ? ''
      : stamped
        ? ', estimated from the words spoken before it as no timestamp comes before it'
        : ', estimated from the words spoken before it as the transcript has no timestamps';
  // Strictly before: "before minute 1" means within the first 60 seconds.
  const score = minute < deadline ? 1 : lateCredit(minute, deadline);
  return scored(score, `First said at ${clock(ms)}${estimate} (before minute ${deadline} wanted).`);
}

/** m:ss, rounded down: 59.9 s is 0:59, never "minute 1.0" beside a deadline of minute 1. */
function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Said late earns up to half, falling to nothing at twice the deadline. */
function lateCredit(at: number, deadline: number): number {
  return 0.5 * (1 - (at - deadline) / deadline);
}

/** Sentences and quotes of one rep turn; sentences are split lazily, at most once. */
class TurnQuotes {
  private ranges: Range[] | null = null;

  constructor(
    private readonly turn: Turn,
    private readonly turnIndex: number,
  ) {}

  sentences(): Range[] {
    this.ranges ??= splitSentences(this.turn.text);
    return this.ranges;
  }

  /** The sentence holding [start, end), clipped around it when long. */
  around(start: number, end: number): Evidence {
    const sentence = this.sentences().find((s) => s.start <= start && start < s.end) ?? {
      start: 0,
      end: this.turn.text.length,
    };
    return this.clip(sentence, { start, end: Math.min(end, sentence.end) });
  }

  /** The turn's first words. */
  opening(): Evidence {
    const whole = trimRange(this.turn.text, { start: 0, end: this.turn.text.length });
    return this.clip(whole, { start: whole.start, end: whole.start });
  }

  /** An exact substring of the turn: `within`, or about QUOTE_CHARS of it around `focus`, cut between words. */
  clip(within: Range, focus: Range): Evidence {
    const text = this.turn.text;
    let { start, end } = within;
    if (end - start > QUOTE_CHARS) {
      const size = Math.max(QUOTE_CHARS, focus.end - focus.start);
      start = Math.max(within.start, focus.start - Math.floor((size - (focus.end - focus.start)) / 2));
      end = Math.min(within.end, start + size);
      start = Math.max(within.start, end - size);
      // Cut between words: move a cut inside a word to the nearest space toward the focus; with no space to
      // move to (one very long token), cut anyway but never through a surrogate pair.
      if (start > within.start && !isBlank(text, start - 1) && !isBlank(text, start)) {
        const gap = text.slice(start, focus.start).search(/\s/);
        if (gap !== -1) start += gap;
        else if (isLowSurrogate(text.charCodeAt(start))) start++;
      }
      if (end < within.end && !isBlank(text, end - 1) && !isBlank(text, end)) {
        const gap = text.slice(focus.end, end).search(/\s\S*$/);
        if (gap !== -1) end = focus.end + gap;
        else if (isLowSurrogate(text.charCodeAt(end))) end--;
      }
    }
    const quoted = trimRange(text, { start, end });
    return {
      turn_index: this.turnIndex,
      start_ms: startMsAt(this.turn, quoted.start),
      quote: text.slice(quoted.start, quoted.end),
    };
  }
}

/** Sentences end at a run of . ? ! followed by whitespace or the end of the text. */
function splitSentences(text: string): Range[] {
  const ranges: Range[] = [];
  const boundary = new RegExp(SENTENCE_BOUNDARY, 'gu');
  let start = 0;
  for (let match = boundary.exec(text); match; match = boundary.exec(text)) {
    const end = match.index + match[0].length;
    const range = trimRange(text, { start, end });
    if (range.end > range.start) ranges.push(range);
    start = end;
  }
  const rest = trimRange(text, { start, end: text.length });
  if (rest.end > rest.start) ranges.push(rest);
  return ranges;
}

function trimRange(text: string, range: Range): Range {
  let { start, end } = range;
  while (start < end && isBlank(text, start)) start++;
  while (end > start && isBlank(text, end - 1)) end--;
  return { start, end };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isBlank(text: string, index: number): boolean {
  return /\s/.test(text.charAt(index));
}

function newQuestionTally(): QuestionTally {
  return { count: 0, evidence: [] };
}

function countQuestion(tally: QuestionTally, quote: Evidence): void {
  tally.count++;
  addEvidence(tally.evidence, quote);
}

function addEvidence(evidence: Evidence[], quote: Evidence): void {
  if (evidence.length >= MAX_EVIDENCE || quote.quote === '') return;
  if (evidence.some((e) => e.turn_index === quote.turn_index && e.quote === quote.quote)) return;
  evidence.push(quote);
}

function phrasesOf(criterion: Criterion): string[] {
  const check = criterion.check;
  return check.type === 'phrases' || check.type === 'mentions_before' ? check.any : [];
}

function normalisePhrase(said: string): string {
  return said
    .replace(/\s+/g, ' ')
    .replace(/[\u2018\u2019]/g, "'")
    .toLowerCase();
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}
