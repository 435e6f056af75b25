import type { ParticipantInput } from '../types.js';

/** One speaker turn (or part of one) as the importers produce it; fits `transcript.segments[]`. */
export interface ImportedSegment {
  speaker: string;
  text: string;
  /** Offset from call start in ms; null when the source has no timestamps. */
  start_ms: number | null;
}

export type TranscriptFormat = 'webvtt' | 'srt' | 'gong' | 'text';

export type TranscriptImportErrorCode =
  /** No speaker labels at all: the server would answer 422 `transcript_unlabeled`. */
  | 'transcript_unlabeled'
  /** Nothing to import (no cue or line with text). */
  | 'transcript_empty'
  /** The content is not in the format given or detected. */
  | 'invalid_format'
  /** A Gong export holds several calls and no `callId` chose one. */
  | 'call_not_selected';

/** The transcript could not be converted; `message` says which layout is expected. */
export class TranscriptImportError extends Error {
  readonly code: TranscriptImportErrorCode;
  readonly format: TranscriptFormat | undefined;

  constructor(code: TranscriptImportErrorCode, message: string, format?: TranscriptFormat) {
    super(message);
    this.name = 'TranscriptImportError';
    this.code = code;
    this.format = format;
  }
}

export interface ImporterOptions {
  /** Told about content that was skipped (e.g. text before the first speaker label). */
  onWarning?: (message: string) => void;
}

export interface ImportResult {
  format: TranscriptFormat;
  segments: ImportedSegment[];
  /** Gong only: the external parties, as `participants` for CreateCallRequest. */
  participants?: ParticipantInput[];
  warnings: string[];
}

/** The layouts each format must follow, quoted in `transcript_unlabeled` errors. */
export const EXPECTED_LAYOUT: Record<TranscriptFormat, string> = {
  webvtt:
    'Expected cues with voice tags, as Zoom, Teams and Meet export them ("<v Ada Park>Thanks for joining.</v>"), ' +
    'or cue text that starts with the speaker ("Ada Park: Thanks for joining.").',
  srt: 'Expected each cue\'s text to start with the speaker ("Ada Park: Thanks for joining.").',
  text:
    'Expected one line per turn ("Ada Park: Thanks for joining."), or a header line with an optional timestamp ' +
    'and the speaker ("[01:23] Ada Park" or "01:23 - Ada Park") followed by the utterance on the next lines.',
  gong:
    'Expected Gong\'s transcript export ({ "callTranscripts": [{ "callId", "transcript": [{ "speakerId", ' +
    '"sentences": [{ "start", "end", "text" }] }] }] }) with parties mapping speakerId to names.',
};

/** Longest segment text the contract accepts (characters = code points). */
export const MAX_SEGMENT_CHARS = 20_000;
const MAX_SPEAKER_CHARS = 200;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  lrm: '',
  rlm: '',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const cp =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Removes markup tags (`<c.yellow>`, `<b>`, `<i>`, `<font>`, inline `<00:01.000>` timestamps, `{\an8}`). */
export function stripMarkup(s: string): string {
  return s
    .replace(/<\/?[a-z][^<>]*>/gi, '')
    .replace(/<\d[\d:.]*>/g, '')
    .replace(/\{\\[^{}]*\}/g, '');
}

export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Speaker label, whitespace-collapsed and cut to the contract's 200 characters. */
export function cleanSpeaker(s: string): string {
  const label = collapseWhitespace(s);
  const cps = Array.from(label);
  return cps.length > MAX_SPEAKER_CHARS ? cps.slice(0, MAX_SPEAKER_CHARS).join('').trim() : label;
}

/**
 * Recognises `Speaker: text` at the start of a line. The label must look like a name, not a
 * sentence: at most 80 characters and 6 words, no sentence punctuation, and not three or more
 * all-lowercase words ("the plan is: ..." is text, not a speaker).
 */
export function splitSpeakerPrefix(line: string): { speaker: string; text: string } | null {
  const m = /^\s*(?:-\s*)?([^:<>[\]{}\n]{1,80}?)\s*:(?:\s+(.*))?$/.exec(line);
  if (!m || m[1] === undefined) return null;
  const label = collapseWhitespace(m[1]);
  if (label === '' || /[?!;"]/.test(label) || /^\d+$/.test(label)) return null;
  const words = label.split(' ');
  if (words.length > 6) return null;
  if (words.length >= 3 && words.every((w) => /^[a-z]/.test(w))) return null;
  return { speaker: label, text: m[2] ?? '' };
}

/** Groups cleaned lines into turns: a `Name: text` line starts one, other lines continue it. */
export function linesToParts(lines: string[]): { speaker: string | null; text: string }[] {
  const parts: { speaker: string | null; text: string }[] = [];
  for (const line of lines) {
    const prefixed = splitSpeakerPrefix(line);
    const last = parts[parts.length - 1];
    if (prefixed) parts.push(prefixed);
    else if (last) last.text += `\n${line}`;
    else parts.push({ speaker: null, text: line });
  }
  return parts;
}

/** Splits text longer than the contract's 20,000 characters at whitespace. */
export function chunkText(text: string): string[] {
  const cps = Array.from(text);
  if (cps.length <= MAX_SEGMENT_CHARS) return [text];
  const out: string[] = [];
  let i = 0;
  while (i < cps.length) {
    let end = Math.min(i + MAX_SEGMENT_CHARS, cps.length);
    if (end < cps.length) {
      let j = end;
      while (j > i && !/\s/.test(cps[j] ?? '')) j--;
      if (j > i) end = j;
    }
    const piece = cps.slice(i, end).join('').trim();
    if (piece) out.push(piece);
    i = end;
  }
  return out;
}

/**
 * Collects segments in order. Unlabeled text continues the previous speaker (subtitle files
 * split long turns across cues); unlabeled text before the first label is dropped with a warning.
 */
export class SegmentCollector {
  readonly segments: ImportedSegment[] = [];
  private current: string | null = null;
  private sawText = false;
  private labeled = false;
  private dropped = 0;

  constructor(
    private readonly format: TranscriptFormat,
    private readonly options: ImporterOptions,
  ) {}

  add(speaker: string | null, rawText: string, startMs: number | null): void {
    const text = collapseWhitespace(rawText);
    if (speaker !== null) {
      const label = cleanSpeaker(speaker);
      if (label) {
        this.current = label;
        this.labeled = true;
      }
    }
    if (!text) return;
    this.sawText = true;
    if (this.current === null) {
      this.dropped++;
      return;
    }
    for (const piece of chunkText(text))
      this.segments.push({ speaker: this.current, text: piece, start_ms: startMs });
  }

  finish(): ImportedSegment[] {
    if (!this.sawText) {
      throw new TranscriptImportError(
        'transcript_empty',
        `The ${this.format} transcript has no text.`,
        this.format,
      );
    }
    if (!this.labeled || this.segments.length === 0) {
      throw new TranscriptImportError(
        'transcript_unlabeled',
        `The ${this.format} transcript has no speaker labels. ${EXPECTED_LAYOUT[this.format]}`,
        this.format,
      );
    }
    if (this.dropped > 0) {
      this.options.onWarning?.(
        `${this.dropped} unlabeled passage(s) before the first speaker label were skipped`,
      );
    }
    return this.segments;
  }
}

/** Normalises line endings and removes a byte-order mark. */
export function normalizeNewlines(s: string): string {
  return s.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** Splits on blank lines (lines holding only whitespace count as blank). */
export function blocks(s: string): string[][] {
  return normalizeNewlines(s)
    .split(/\n[ \t]*\n/)
    .map((b) => {
      const lines = b.split('\n');
      while (lines.length > 0 && lines[0]?.trim() === '') lines.shift();
      while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
      return lines;
    })
    .filter((lines) => lines.length > 0);
}
