import {
  blocks,
  decodeEntities,
  EXPECTED_LAYOUT,
  type ImportedSegment,
  type ImporterOptions,
  SegmentCollector,
  linesToParts,
  stripMarkup,
  TranscriptImportError,
} from './common.js';

/** `hh:mm:ss,mmm` (SRT; a `.` is tolerated) to milliseconds; null if malformed. */
export function parseSrtTimestamp(ts: string): number | null {
  const m = /^(\d+):([0-5]\d):([0-5]\d)[,.](\d{1,3})$/.exec(ts.trim());
  if (!m) return null;
  const [, h, mm, ss, ms] = m;
  return ((Number(h) * 60 + Number(mm)) * 60 + Number(ss)) * 1000 + Number((ms ?? '0').padEnd(3, '0'));
}

/**
 * Converts an SRT transcript to segments. Speakers come from a `Name: text` prefix on a cue
 * line (`- Name: text` dialogue lines included); lines without one continue the current speaker.
 */
export function parseSrt(content: string, options: ImporterOptions = {}): ImportedSegment[] {
  const out = new SegmentCollector('srt', options);
  let cues = 0;
  for (const block of blocks(content)) {
    const timingIndex = block.findIndex((l) => l.includes('-->'));
    if (timingIndex < 0 || timingIndex > 1) continue; // not a cue
    cues++;
    const timing = /^\s*(\S+)\s+-->\s+(\S+)/.exec(block[timingIndex] ?? '');
    const start = timing?.[1] !== undefined ? parseSrtTimestamp(timing[1]) : null;
    const lines = block.slice(timingIndex + 1).map((raw) => decodeEntities(stripMarkup(raw)));
    for (const part of linesToParts(lines)) out.add(part.speaker, part.text, start);
  }
  if (cues === 0)
    throw new TranscriptImportError('invalid_format', `Not an SRT file. ${EXPECTED_LAYOUT.srt}`, 'srt');
  return out.finish();
}
