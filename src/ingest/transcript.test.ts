import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  checkTranscriptLimits,
  countCharacters,
  normalizeLabel,
  parseTranscript,
  speakerLabels,
  startMsAt,
  transcriptFingerprint,
  type Turn,
} from './transcript.js';

function fromText(text: string): Turn[] {
  return parseTranscript({ text, segments: null });
}

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

const seg = (speaker: string, text: string, start_ms?: number | null) => ({ speaker, text, start_ms });

describe('parseTranscript: segments', () => {
  it('merges consecutive segments of the exact same label: the first start_ms, the later ones by offset', () => {
    const turns = parseTranscript({
      segments: [
        seg('Rep', 'Hi', 0),
        seg('Rep', 'there', 900),
        seg('Ann', 'Hello', 2000),
        seg('Rep', 'So', null),
      ],
    });
    expect(turns).toEqual([
      { speaker: 'Rep', text: 'Hi\nthere', start_ms: 0, segment_starts: [{ at: 3, start_ms: 900 }] },
      { speaker: 'Ann', text: 'Hello', start_ms: 2000 },
      { speaker: 'Rep', text: 'So', start_ms: null },
    ]);
  });

  it('does not normalise labels when merging', () => {
    const turns = parseTranscript({ segments: [seg('Rep', 'a'), seg('rep', 'b'), seg('Rep ', 'c')] });
    expect(turns.map((t) => t.speaker)).toEqual(['Rep', 'rep', 'Rep ']);
  });

  it('uses null when the first segment of a turn has no start_ms', () => {
    const turns = parseTranscript({ segments: [seg('A', 'x'), seg('A', 'y', 500)] });
    expect(turns).toEqual([
      { speaker: 'A', text: 'x\ny', start_ms: null, segment_starts: [{ at: 2, start_ms: 500 }] },
    ]);
    expect([startMsAt(turns[0]!, 0), startMsAt(turns[0]!, 1), startMsAt(turns[0]!, 2)]).toEqual([
      null,
      null,
      500,
    ]);
  });
});

describe('parseTranscript: one line per turn', () => {
  it('reads "Label: utterance" lines, trims, accepts CRLF and skips blank lines', () => {
    const turns = fromText('  Jane Doe :  Hi, thanks for joining.  \r\n\r\nBob: Sure.\r\n');
    expect(turns).toEqual([
      { speaker: 'Jane Doe', text: 'Hi, thanks for joining.', start_ms: null },
      { speaker: 'Bob', text: 'Sure.', start_ms: null },
    ]);
  });

  it('merges consecutive lines of the same label', () => {
    expect(fromText('A: one\nA: two\nB: three')).toEqual([
      { speaker: 'A', text: 'one\ntwo', start_ms: null },
      { speaker: 'B', text: 'three', start_ms: null },
    ]);
  });

  it('treats an unlabelled line after a labelled one as wrapped text of that turn', () => {
    expect(fromText('A: the start of a long\nsentence that wraps\nB: ok')).toEqual([
      { speaker: 'A', text: 'the start of a long\nsentence that wraps', start_ms: null },
      { speaker: 'B', text: 'ok', start_ms: null },
    ]);
  });

  it('splits on the first colon followed by a space, so the utterance may hold colons', () => {
    expect(fromText('Speaker 1: the ratio is 3:1: see https://x.io/a:b')).toEqual([
      { speaker: 'Speaker 1', text: 'the ratio is 3:1: see https://x.io/a:b', start_ms: null },
    ]);
  });

  it('accepts a tab after the colon', () => {
    expect(fromText('A:\tyes')[0]).toEqual({ speaker: 'A', text: 'yes', start_ms: null });
  });

  it('does not take a clock time, a URL or a long sentence for a label', () => {
    const long = 'x'.repeat(201);
    const turns = fromText(
      `A: we meet at\n10:30: sharp\nhttps: //example.com\nsee https://a.b: ok\n${long}: hmm`,
    );
    expect(turns).toEqual([
      {
        speaker: 'A',
        text: `we meet at\n10:30: sharp\nhttps: //example.com\nsee https://a.b: ok\n${long}: hmm`,
        start_ms: null,
      },
    ]);
  });

  it('accepts a label of exactly 200 code points, astral ones included', () => {
    const label = '😀'.repeat(199) + 'a';
    expect(fromText(`${label}: hi`)[0]?.speaker).toBe(label);
  });

  it('requires a letter in a label', () => {
    expect(fromText('A: count\n42: items')).toEqual([
      { speaker: 'A', text: 'count\n42: items', start_ms: null },
    ]);
  });

  it('accepts non-Latin labels', () => {
    expect(fromText('Анна: Привет\n李明: 你好').map((t) => t.speaker)).toEqual(['Анна', '李明']);
  });

  it('reads "Label:" alone as a header without a timestamp', () => {
    expect(fromText('Rep:\nHello there.\nHow are you?\nAnn:\nFine.')).toEqual([
      { speaker: 'Rep', text: 'Hello there.\nHow are you?', start_ms: null },
      { speaker: 'Ann', text: 'Fine.', start_ms: null },
    ]);
  });
});

describe('parseTranscript: header layout', () => {
  it('reads [mm:ss] and [hh:mm:ss] headers with the utterance on following lines', () => {
    expect(fromText('[00:05] Jane Doe\nHi.\nWelcome.\n\n[01:02:03] Bob:\nThanks.')).toEqual([
      { speaker: 'Jane Doe', text: 'Hi.\nWelcome.', start_ms: 5_000 },
      { speaker: 'Bob', text: 'Thanks.', start_ms: 3_723_000 },
    ]);
  });

  it('reads "mm:ss - Label" and "hh:mm:ss - Label" headers', () => {
    expect(fromText('00:07 - Jane\nHi.\n1:00:00 – Bob\nHey.')).toEqual([
      { speaker: 'Jane', text: 'Hi.', start_ms: 7_000 },
      { speaker: 'Bob', text: 'Hey.', start_ms: 3_600_000 },
    ]);
  });

  it('accepts more than 59 minutes in mm:ss', () => {
    expect(fromText('[125:30] A\nlate')[0]?.start_ms).toBe(7_530_000);
  });

  it('merges consecutive headers of the same label, keeping the first timestamp', () => {
    expect(fromText('[00:01] A\none\n[00:09] A\ntwo\n[00:12] B\nthree')).toEqual([
      { speaker: 'A', text: 'one\ntwo', start_ms: 1_000, segment_starts: [{ at: 4, start_ms: 9_000 }] },
      { speaker: 'B', text: 'three', start_ms: 12_000 },
    ]);
  });

  it('keeps "Label: text" lines under a timestamped header as utterance text', () => {
    expect(fromText('[00:01] Rep\nAgenda: pricing, then timeline.\nThe plan:\n[00:30] Ann\nOk.')).toEqual([
      { speaker: 'Rep', text: 'Agenda: pricing, then timeline.\nThe plan:', start_ms: 1_000 },
      { speaker: 'Ann', text: 'Ok.', start_ms: 30_000 },
    ]);
  });

  it('accepts a timestamp before a "Label: utterance" line', () => {
    expect(fromText('[00:01] Rep: Hello\n[00:04] Ann: Hi')).toEqual([
      { speaker: 'Rep', text: 'Hello', start_ms: 1_000 },
      { speaker: 'Ann', text: 'Hi', start_ms: 4_000 },
    ]);
  });

  it('accepts timestamped headers mixed into a "Label: utterance" transcript', () => {
    expect(fromText('Rep: Hello\n[00:04] Ann\nHi\nRep: Bye')).toEqual([
      { speaker: 'Rep', text: 'Hello', start_ms: null },
      { speaker: 'Ann', text: 'Hi', start_ms: 4_000 },
      { speaker: 'Rep', text: 'Bye', start_ms: null },
    ]);
  });

  it('adds no turn for a header with no utterance, so its neighbours merge', () => {
    expect(fromText('[00:01] A\nhi\n[00:02] B\n[00:03] A\nagain')).toEqual([
      { speaker: 'A', text: 'hi\nagain', start_ms: 1_000, segment_starts: [{ at: 3, start_ms: 3_000 }] },
    ]);
  });

  it('does not read an out-of-range timestamp or a number-only label as a header', () => {
    expect(fromText('[00:01] A\nsee\n[00:75] B\n[00:02] 42')).toEqual([
      { speaker: 'A', text: 'see\n[00:75] B\n[00:02] 42', start_ms: 1_000 },
    ]);
  });
});

describe('parseTranscript: transcript_unlabeled', () => {
  it('refuses text with no label at all, naming the expected layouts', () => {
    const error = errorOf(() => fromText('Hello there.\nHi, how are you?'));
    expect(error.code).toBe('transcript_unlabeled');
    expect(error.message).toContain('no speaker labels');
    expect(error.message).toContain('[mm:ss] Speaker');
    expect(error.message).toContain('Speaker: utterance');
  });

  it('refuses utterance text before the first label, naming the line', () => {
    const error = errorOf(() => fromText('\nCall notes\nA: hi'));
    expect(error.code).toBe('transcript_unlabeled');
    expect(error.message).toContain('Line 2');
  });

  it('refuses blank-only text', () => {
    expect(errorOf(() => fromText(' \r\n\n ')).code).toBe('transcript_unlabeled');
  });

  it('refuses labels with no utterance at all as validation_failed on transcript.text', () => {
    const error = errorOf(() => fromText('[00:01] A\n[00:02] B'));
    expect(error.code).toBe('validation_failed');
    expect(error.fields?.[0]?.field).toBe('transcript.text');
  });
});

describe('countCharacters', () => {
  it('counts code points, not UTF-16 units', () => {
    const turns = parseTranscript({ segments: [seg('A', '😀a𝄞'), seg('B', 'é')] });
    expect(countCharacters(turns)).toBe(4);
  });

  it('does not count labels, timestamps or separators inserted by merging and wrapping', () => {
    const turns = fromText('[00:01] Alice\nab\ncd\n[00:02] Alice\nef\n[00:03] Bob\ng');
    expect(turns[0]?.text).toBe('ab\ncd\nef');
    expect(countCharacters(turns)).toBe(7);
  });

  it('counts newlines the caller sent inside a segment', () => {
    expect(countCharacters(parseTranscript({ segments: [seg('A', 'a\nb'), seg('A', 'c')] }))).toBe(4);
  });
});

describe('checkTranscriptLimits', () => {
  const alternating = (n: number): Turn[] =>
    parseTranscript({ segments: Array.from({ length: n }, (_, i) => seg(i % 2 ? 'A' : 'B', 'x')) });

  it('accepts exactly 2,000 turns and refuses 2,001', () => {
    expect(() => checkTranscriptLimits(alternating(2_000))).not.toThrow();
    const error = errorOf(() => checkTranscriptLimits(alternating(2_001)));
    expect(error.code).toBe('transcript_too_long');
    expect(error.message).toContain('2001');
  });

  it('counts turns after merging', () => {
    const sameSpeaker = parseTranscript({ segments: Array.from({ length: 10_000 }, () => seg('A', 'x')) });
    expect(sameSpeaker).toHaveLength(1);
    expect(() => checkTranscriptLimits(sameSpeaker)).not.toThrow();
  });

  it('accepts segments totalling exactly 400,000 code points and refuses one more', () => {
    // 20 segments of 20,000 astral code points (40,000 UTF-16 units each), merged into one turn.
    const segments = Array.from({ length: 20 }, () => seg('A', '😀'.repeat(20_000)));
    expect(() => checkTranscriptLimits(parseTranscript({ segments }))).not.toThrow();
    const error = errorOf(() =>
      checkTranscriptLimits(parseTranscript({ segments: [...segments, seg('B', 'x')] })),
    );
    expect(error.code).toBe('transcript_too_long');
    expect(error.message).toContain('400001');
  });

  it('never truncates: the turns are left as they were', () => {
    const turns = alternating(2_001);
    errorOf(() => checkTranscriptLimits(turns));
    expect(turns).toHaveLength(2_001);
  });
});

describe('transcriptFingerprint', () => {
  const segmentsForm = parseTranscript({
    segments: [seg('Rep', 'Hi  there', 0), seg('Rep', 'friend', 800), seg('Ann', ' Hello\tyou ', 1500)],
  });

  it('is hex SHA-256, and the value stored calls were given (escaped strings included)', () => {
    expect(transcriptFingerprint(segmentsForm)).toBe(
      '7199ff3c2fbe51d876b97c87619b5842369fe483b5aa2d40a78c6163b4445ba8',
    );
    const escaped = parseTranscript({
      segments: [seg('Ann "A"', 'a\\b \u0001 \ud800 😀 plain'), seg('Rep', 'plain words')],
    });
    expect(transcriptFingerprint(escaped)).toBe(
      'f71ac7402414eb2aca5fc6efd5b03d5fdff9f78c058572f75ef562b71c66ada7',
    );
  });

  it('is the same for the segment and plain-text forms of one dialogue, in either text layout', () => {
    const lines = fromText('Rep: Hi there\nfriend\nAnn: Hello you');
    const headers = fromText('[00:00] Rep\nHi there\n[00:01] Rep\nfriend\n[00:02] Ann\nHello   you');
    expect(transcriptFingerprint(lines)).toBe(transcriptFingerprint(segmentsForm));
    expect(transcriptFingerprint(headers)).toBe(transcriptFingerprint(segmentsForm));
  });

  it('ignores timestamps and whitespace differences', () => {
    const other = parseTranscript({
      segments: [seg('Rep', 'Hi there\nfriend', 99), seg(' Ann ', 'Hello you', null)],
    });
    expect(transcriptFingerprint(other)).toBe(transcriptFingerprint(segmentsForm));
  });

  it('changes with a label, the text or the turn boundaries', () => {
    const base = transcriptFingerprint(parseTranscript({ segments: [seg('Rep', 'a b'), seg('Ann', 'c')] }));
    expect(
      transcriptFingerprint(parseTranscript({ segments: [seg('rep', 'a b'), seg('Ann', 'c')] })),
    ).not.toBe(base);
    expect(
      transcriptFingerprint(parseTranscript({ segments: [seg('Rep', 'a B'), seg('Ann', 'c')] })),
    ).not.toBe(base);
    expect(
      transcriptFingerprint(parseTranscript({ segments: [seg('Rep', 'a'), seg('Ann', 'b c')] })),
    ).not.toBe(base);
  });

  it('cannot be forged by moving text between label and utterance', () => {
    const a = parseTranscript({ segments: [seg('A', 'B x')] });
    const b = parseTranscript({ segments: [seg('A B', 'x')] });
    expect(transcriptFingerprint(a)).not.toBe(transcriptFingerprint(b));
  });
});

describe('speakerLabels and normalizeLabel', () => {
  it('lists distinct labels in order of first appearance', () => {
    expect(speakerLabels(fromText('B: 1\nA: 2\nB: 3\nC: 4\nA: 5'))).toEqual(['B', 'A', 'C']);
  });

  it('lower-cases, collapses whitespace runs and trims', () => {
    expect(normalizeLabel('  Jane \t  DOE\n ')).toBe('jane doe');
  });
});

describe('performance', () => {
  it('parses 600,000 characters of many lines, or one colon-heavy line, quickly', () => {
    const many = Array.from(
      { length: 20_000 },
      (_, i) => `${i % 2 ? 'Rep' : 'Ann'}: ${'word '.repeat(5)}`,
    ).join('\n');
    const colons = '1:'.repeat(299_990);
    const started = performance.now();
    expect(fromText(many)).toHaveLength(20_000);
    expect(fromText(`A: x\n${colons}`)).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
