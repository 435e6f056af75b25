import {
  blocks,
  decodeEntities,
  type ImportedSegment,
  type ImporterOptions,
  SegmentCollector,
  linesToParts,
  stripMarkup,
  TranscriptImportError,
  EXPECTED_LAYOUT,
} from './common.js';

/** `hh:mm:ss.mmm` or `mm:ss.mmm` (WebVTT cue timestamps) to milliseconds; null if malformed. */
export function parseVttTimestamp(ts: string): number | null {
  const m = /^(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})$/.exec(ts.trim());
  if (!m) return null;
  const [, h, mm, ss, ms] = m;
  return ((Number(h ?? 0) * 60 + Number(mm)) * 60 + Number(ss)) * 1000 + Number(ms);
}

const VOICE = /<v(?:\.[^\s>]*)?(?:[ \t]+([^>]*))?>/g;

/** Splits a cue body into (speaker | null, text) parts: voice spans first, else `Name: text` lines. */
function cueParts(body: string[]): { speaker: string | null; text: string }[] {
  const joined = body.join('\n');
  const parts: { speaker: string | null; text: string }[] = [];
  if (/<v[\s.>]/.test(joined)) {
    let last = 0;
    let speaker: string | null = null;
    for (const m of joined.matchAll(VOICE)) {
      parts.push({ speaker, text: joined.slice(last, m.index) });
      speaker = decodeEntities(m[1] ?? '').trim() || null;
      last = m.index + m[0].length;
    }
    parts.push({ speaker, text: joined.slice(last) });
    return parts.map((p) => ({ speaker: p.speaker, text: decodeEntities(stripMarkup(p.text)) }));
  }
  return linesToParts(body.map((line) => decodeEntities(stripMarkup(line))));
}

/**
 * Converts a WebVTT transcript to segments. Speakers come from voice tags (`<v Ada Park>`, as
 * Zoom, Teams and Meet export) or a `Name: text` cue body; other tags (`<c>`, `<b>`, ...) are
 * removed. A cue without a speaker continues the previous one.
 */
export function parseWebVtt(content: string, options: ImporterOptions = {}): ImportedSegment[] {
  const all = blocks(content);
  const first = all[0];
  if (!first || !/^WEBVTT(?:[ \t]|$)/.test(first[0] ?? '')) {
    // The header is required by the format, but a missing one is harmless if the cues parse.
    if (!all.some((b) => b.some((l) => l.includes('-->')))) {
      throw new TranscriptImportError(
        'invalid_format',
        `Not a WebVTT file. ${EXPECTED_LAYOUT.webvtt}`,
        'webvtt',
      );
    }
  } else {
    all.shift();
  }
  const out = new SegmentCollector('webvtt', options);
  for (const block of all) {
    const head = block[0] ?? '';
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(head)) continue;
    const timingIndex = block.findIndex((l) => l.includes('-->'));
    if (timingIndex < 0 || timingIndex > 1) continue; // not a cue
    const timing = /^\s*(\S+)\s+-->\s+(\S+)/.exec(block[timingIndex] ?? '');
    const start = timing?.[1] !== undefined ? parseVttTimestamp(timing[1]) : null;
    for (const part of cueParts(block.slice(timingIndex + 1))) out.add(part.speaker, part.text, start);
  }
  return out.finish();
}
