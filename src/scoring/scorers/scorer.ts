/** Pure: the Scorer port (rules, llm) and the few text helpers every scorer and score-call share. */
import type { Turn } from '../../ingest/transcript.js';
import type { Criterion } from '../criteria.js';

/** A verbatim excerpt of one rep turn. */
export interface Evidence {
  /** Index into the scored `turns`. */
  turn_index: number;
  /** That turn's start_ms. */
  start_ms: number | null;
  /** An exact substring of that turn's text. */
  quote: string;
}

export interface CriterionResult {
  key: string;
  title: string;
  /** The criterion's weight with its default applied. */
  weight: number;
  /** 0..1; null when the criterion does not apply to this call. */
  score: number | null;
  na: boolean;
  evidence: Evidence[];
  rationale: string;
}

export interface ScoreInput {
  turns: Turn[];
  /** The rep's speaker label; every other label is the customer side. */
  repLabel: string;
  callType: string | null;
  criteria: Criterion[];
}

/** A scorer turns the rep's turns and the criteria into one result per criterion. */
export interface Scorer {
  readonly name: string;
  /** One result per criterion, in the criteria's order. Rejects only when scoring could not run at all. */
  scoreCriteria(input: ScoreInput): Promise<CriterionResult[]>;
}

/** Speaker labels compare ignoring case and runs of whitespace (DESIGN section 4, speaker matching). */
export function normaliseSpeaker(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Words are runs of non-whitespace. */
export function wordCount(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff ||
    code === 0x85
  );
}
