/**
 * Pure: transcript forms → merged turns, limits, fingerprint (spec "transcript", DESIGN 1b step 5 and section 4
 * "Same transcript"). Hashing with node:crypto is computation, not I/O.
 *
 * Plain-text layouts, read line by line (`\r\n` or `\n`; blank lines ignored; every line trimmed):
 * - `Speaker: utterance` starts a turn. The label is the text before the first colon followed by whitespace or
 *   the end of the line. `Speaker:` alone is a header without a timestamp: the utterance follows on later lines.
 * - `[mm:ss] Speaker`, `[hh:mm:ss] Speaker`, `mm:ss - Speaker`, `hh:mm:ss - Speaker` (optional trailing colon)
 *   is a header whose timestamp gives `start_ms`; `[mm:ss] Speaker: utterance` on one line is accepted too.
 * - Any other line continues the current turn (wrapped text, or the utterance under a header).
 * The first labelled line decides how later lines are read: when it is timestamped, only timestamped lines start
 * turns, so utterance lines like "Agenda: pricing" or "The plan:" stay text. Otherwise both layouts start turns
 * (mixed transcripts work).
 * A header followed by no utterance adds no turn (nothing was said); text before the first label is refused.
 */
import { createHash } from 'node:crypto';
import { AppError, fieldError } from '../errors.js';

/** One merged turn: consecutive segments of the same exact label joined. */
export interface Turn {
  speaker: string;
  text: string;
  /** Offset from call start of the turn's first segment, when known. */
  start_ms: number | null;
  /**
   * Where the later segments merged into this turn begin, those with a start_ms: `at` is the UTF-16 offset of
   * their text in `text`. Absent when there are none, so most turns store as {speaker, text, start_ms}.
   */
  segment_starts?: { at: number; start_ms: number }[];
}

/** The start_ms of the segment that holds `offset` of the turn's text (the latest known at or before it). */
export function startMsAt(turn: Turn, offset: number): number | null {
  let found = turn.start_ms;
  for (const s of turn.segment_starts ?? []) if (s.at <= offset) found = s.start_ms;
  return found;
}

/** The request's `transcript`, already schema-validated: exactly one of segments/text is non-null. */
export interface TranscriptInput {
  segments?: { speaker: string; text: string; start_ms?: number | null }[] | null;
  text?: string | null;
}

export const MAX_TURNS = 2_000;
export const MAX_CHARACTERS = 400_000;
const MAX_LABEL_CODE_POINTS = 200;

/** A label cannot hold a colon, so "https://…" and "at 10:30" are never labels; these are the bare schemes. */
const URL_SCHEMES = new Set(['http', 'https', 'ftp', 'mailto']);
const LETTER = /\p{L}/u;
// Runs of two or more whitespace characters, or one that is not a plain space: single spaces (the common case)
// are left alone, which keeps the replace cheap on long texts.
const WHITESPACE_RUN = /\s{2,}|[^\S ]/g;
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
// Anchored, bounded repetitions only: no backtracking on long lines.
const BRACKET_STAMP = /^\[(\d{1,3}):(\d{2})(?::(\d{2}))?\]\s*/;
const DASH_STAMP = /^(\d{1,3}):(\d{2})(?::(\d{2}))?\s+[-–—]\s+/;

const LAYOUTS =
  'Expected speaker labels: one turn per line as "Speaker: utterance", or a header line "[mm:ss] Speaker" ' +
  '(or "mm:ss - Speaker") followed by the utterance lines; or send transcript.segments.';

/**
 * Separators the parser inserted into a turn's text (merge joiners, joined wrapped lines). They are layout, not
 * utterance, so the character limit does not count them. Kept beside the turns so `Turn` stays a plain shape.
 */
const insertedSeparators = new WeakMap<Turn, number>();

interface Segment {
  speaker: string;
  text: string;
  start_ms?: number | null;
  /** Separators inserted into `text` while parsing plain text. */
  separators?: number;
}

interface Head {
  label: string;
  /** '' for a header line: the utterance follows on later lines. */
  utterance: string;
  startMs: number | null;
}

export function parseTranscript(input: TranscriptInput): Turn[] {
  return mergeSegments(input.segments ?? parsePlainText(input.text ?? ''));
}

function mergeSegments(segments: readonly Segment[]): Turn[] {
  const turns: Turn[] = [];
  let i = 0;
  while (i < segments.length) {
    const first = segments[i]!;
    let text = first.text;
    let separators = first.separators ?? 0;
    let starts: { at: number; start_ms: number }[] | undefined;
    let j = i + 1;
    for (; j < segments.length && segments[j]!.speaker === first.speaker; j++) {
      const next = segments[j]!;
      text += '\n';
      if (next.start_ms != null) (starts ??= []).push({ at: text.length, start_ms: next.start_ms });
      text += next.text;
      separators += (next.separators ?? 0) + 1;
    }
    const turn: Turn = { speaker: first.speaker, text, start_ms: first.start_ms ?? null };
    if (starts) turn.segment_starts = starts;
    if (separators > 0) insertedSeparators.set(turn, separators);
    turns.push(turn);
    i = j;
  }
  return turns;
}

function parsePlainText(text: string): Segment[] {
  const segments: Segment[] = [];
  let current: { speaker: string; start_ms: number | null; lines: string[] } | null = null;
  // Decided by the first labelled line; see the module comment.
  let timestamped: boolean | null = null;
  const flush = (): void => {
    // A header with nothing under it adds no turn: there is no utterance to keep.
    if (current && current.lines.length > 0) {
      segments.push({
        speaker: current.speaker,
        text: current.lines.join('\n'),
        start_ms: current.start_ms,
        separators: current.lines.length - 1,
      });
    }
  };

  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line === '') continue;
    const head = readHead(line);
    const startsTurn = head !== null && (timestamped !== true || head.startMs !== null);
    if (startsTurn) {
      timestamped ??= head.startMs !== null;
      flush();
      current = {
        speaker: head.label,
        start_ms: head.startMs,
        lines: head.utterance === '' ? [] : [head.utterance],
      };
    } else if (current) {
      current.lines.push(line);
    } else {
      // Only on failure: look ahead so a transcript without any label gets the plainer message.
      const labelLater = lines.slice(n + 1).some((l) => readHead(l.trim()) !== null);
      throw unlabeled(
        labelLater ? `Line ${n + 1} of transcript.text comes before the first speaker label.` : undefined,
      );
    }
  }
  flush();

  if (current === null) throw unlabeled();
  if (segments.length === 0) throw fieldError('transcript.text', 'has speaker labels but no utterance text.');
  return segments;
}

function unlabeled(problem = 'transcript.text has no speaker labels.'): AppError {
  return new AppError('transcript_unlabeled', `${problem} ${LAYOUTS}`);
}

/** A line that names a speaker, or null for utterance text. */
function readHead(line: string): Head | null {
  const stamp = BRACKET_STAMP.exec(line) ?? DASH_STAMP.exec(line);
  if (stamp) {
    const startMs = stampToMs(stamp[1]!, stamp[2]!, stamp[3]);
    const rest = line.slice(stamp[0].length);
    const head =
      startMs === null ? null : (splitLabel(rest) ?? (isLabel(rest) ? { label: rest, utterance: '' } : null));
    if (head) return { ...head, startMs };
  }
  const head = splitLabel(line);
  return head && { ...head, startMs: null };
}

/** `a:b` is mm:ss; `a:b:c` is hh:mm:ss. Null when a minutes or seconds field is over 59. */
function stampToMs(a: string, b: string, c: string | undefined): number | null {
  const [h, m, s] = c === undefined ? [0, Number(a), Number(b)] : [Number(a), Number(b), Number(c)];
  if (s > 59 || (c !== undefined && m > 59)) return null;
  return ((h * 60 + m) * 60 + s) * 1000;
}

/** `Label: utterance` or `Label:` → parts, when the text before the first "colon + whitespace/end" is a label. */
function splitLabel(s: string): { label: string; utterance: string } | null {
  let colon = s.indexOf(':');
  while (colon !== -1 && colon + 1 < s.length && !/\s/.test(s[colon + 1]!)) colon = s.indexOf(':', colon + 1);
  if (colon === -1) return null;
  const label = s.slice(0, colon).trim();
  return isLabel(label) ? { label, utterance: s.slice(colon + 1).trim() } : null;
}

function isLabel(s: string): boolean {
  // Two UTF-16 units per code point at most: longer strings cannot be ≤ 200 code points.
  if (s.length === 0 || s.length > 2 * MAX_LABEL_CODE_POINTS) return false;
  return (
    codePoints(s) <= MAX_LABEL_CODE_POINTS &&
    !s.includes(':') &&
    LETTER.test(s) &&
    !URL_SCHEMES.has(s.toLowerCase())
  );
}

/** Unicode code points (a surrogate pair is one; a lone surrogate is one too). */
function codePoints(s: string): number {
  // UTF-16 length minus one per surrogate pair; the native regex scan is much faster than a JS loop.
  let pairs = 0;
  SURROGATE_PAIR.lastIndex = 0;
  while (SURROGATE_PAIR.test(s)) pairs++;
  return s.length - pairs;
}

/** Code points of the utterance text, without labels, timestamps or the separators the parser inserted. */
export function countCharacters(turns: readonly Turn[]): number {
  let total = 0;
  for (const turn of turns) total += codePoints(turn.text) - (insertedSeparators.get(turn) ?? 0);
  return total;
}

/** transcript_too_long over 2,000 merged turns or 400,000 characters; never truncates. */
export function checkTranscriptLimits(turns: readonly Turn[]): void {
  if (turns.length > MAX_TURNS) {
    throw new AppError(
      'transcript_too_long',
      `The transcript has ${turns.length} turns after merging consecutive turns of one speaker; the limit is ${MAX_TURNS}.`,
    );
  }
  // A code point is one or two UTF-16 units: within the limit in units, the exact count is not needed.
  let units = 0;
  for (const turn of turns) units += turn.text.length - (insertedSeparators.get(turn) ?? 0);
  if (units <= MAX_CHARACTERS) return;
  const characters = countCharacters(turns);
  if (characters > MAX_CHARACTERS) {
    throw new AppError(
      'transcript_too_long',
      `The transcript has ${characters} characters of utterance text; the limit is ${MAX_CHARACTERS}.`,
    );
  }
}

function collapseWhitespace(s: string): string {
  return s.replace(WHITESPACE_RUN, ' ').trim();
}

/** What `JSON.stringify` would escape, and whitespace other than a plain space. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const NEEDS_WORK = /[^\S ]|["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(collapseWhitespace(s)), with a fast path for the common string that neither changes. */
function normalizedJson(s: string): string {
  const clean =
    s.charCodeAt(0) !== 32 && s.charCodeAt(s.length - 1) !== 32 && !s.includes('  ') && !NEEDS_WORK.test(s);
  return clean ? `"${s}"` : JSON.stringify(collapseWhitespace(s));
}

/**
 * Hex SHA-256 over the merged turns' labels and texts, whitespace runs collapsed and ends trimmed; timestamps
 * are left out, so the segment and plain-text forms of one dialogue give the same value.
 */
export function transcriptFingerprint(turns: readonly Turn[]): string {
  // Each string JSON-encoded, so quotes delimit it unambiguously; one hash update over the joined parts.
  const parts: string[] = [];
  for (const t of turns) parts.push(normalizedJson(t.speaker), normalizedJson(t.text));
  return createHash('sha256').update(parts.join('')).digest('hex');
}

/** What step 5 of an ingest computes from the merged turns: the fingerprint and the JSON the transcript is stored as. */
export interface TranscriptDigest {
  fingerprint: string;
  turnsJson: string;
}

export function digestTranscript(turns: readonly Turn[]): TranscriptDigest {
  return { fingerprint: transcriptFingerprint(turns), turnsJson: JSON.stringify(turns) };
}

/** Distinct labels, exactly as written, in order of first appearance. */
export function speakerLabels(turns: readonly Turn[]): string[] {
  return [...new Set(turns.map((t) => t.speaker))];
}

/** The form speaker matching compares: lower case, whitespace runs collapsed, ends trimmed. */
export function normalizeLabel(s: string): string {
  return collapseWhitespace(s.toLowerCase());
}
