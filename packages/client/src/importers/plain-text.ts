import {
  type ImportedSegment,
  type ImporterOptions,
  linesToParts,
  normalizeNewlines,
  SegmentCollector,
  splitSpeakerPrefix,
} from './common.js';

/** `mm:ss` or `h:mm:ss` to milliseconds. */
function clockToMs(clock: string): number {
  const parts = clock.split(':').map(Number);
  let seconds = 0;
  for (const p of parts) seconds = seconds * 60 + p;
  return seconds * 1000;
}

const CLOCK = String.raw`(?:\d{1,2}:)?\d{1,3}:[0-5]\d`;
/** `[mm:ss] Name` (also `[h:mm:ss] Name`). */
const BRACKET_HEADER = new RegExp(String.raw`^\s*\[(${CLOCK})\]\s+(\S.{0,199}?)\s*$`);
/** `mm:ss - Name` (hyphen, en or em dash). */
const DASH_HEADER = new RegExp(String.raw`^\s*(${CLOCK})\s+[-\u2013\u2014]\s+(\S.{0,199}?)\s*$`);

function header(line: string): { speaker: string; startMs: number; text: string } | null {
  const m = BRACKET_HEADER.exec(line) ?? DASH_HEADER.exec(line);
  if (!m || m[1] === undefined || m[2] === undefined) return null;
  // `[01:23] Ada Park: Hello` carries the utterance on the header line itself.
  const inline = splitSpeakerPrefix(m[2]);
  return inline
    ? { speaker: inline.speaker, startMs: clockToMs(m[1]), text: inline.text }
    : { speaker: m[2], startMs: clockToMs(m[1]), text: '' };
}

/**
 * Converts the contract's plain-text layouts to segments:
 * one `Name: text` line per turn (following unlabeled lines continue the turn), or header lines
 * `[mm:ss] Name` / `mm:ss - Name` with the utterance on the lines after. A document with any
 * header line is read in the header layout, so a colon inside an utterance is never a speaker.
 */
export function parsePlainText(content: string, options: ImporterOptions = {}): ImportedSegment[] {
  const lines = normalizeNewlines(content).split('\n');
  const out = new SegmentCollector('text', options);
  if (lines.some((l) => header(l) !== null)) {
    let turn: { speaker: string | null; startMs: number | null; text: string[] } = {
      speaker: null,
      startMs: null,
      text: [],
    };
    const flush = () => out.add(turn.speaker, turn.text.join('\n'), turn.startMs);
    for (const line of lines) {
      const h = header(line);
      if (h) {
        flush();
        turn = { speaker: h.speaker, startMs: h.startMs, text: [h.text] };
      } else {
        turn.text.push(line);
      }
    }
    flush();
    return out.finish();
  }
  // Line layout: a blank line ends a turn's continuation lines, but not the speaker.
  for (const part of linesToParts(lines.filter((l) => l.trim() !== '')))
    out.add(part.speaker, part.text, null);
  return out.finish();
}
