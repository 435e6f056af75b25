import type { ParticipantInput } from '../types.js';
import {
  cleanSpeaker,
  collapseWhitespace,
  EXPECTED_LAYOUT,
  type ImportedSegment,
  type ImporterOptions,
  SegmentCollector,
  TranscriptImportError,
} from './common.js';

/** One party of a Gong call (from `/v2/calls/extensive`: `calls[].parties[]`). */
export interface GongParty {
  speakerId?: string | null;
  name?: string | null;
  emailAddress?: string | null;
  affiliation?: 'Internal' | 'External' | 'Unknown' | (string & {}) | null;
  [unknownField: string]: unknown;
}

/** Gong's transcript export (`/v2/calls/transcript`). */
export interface GongTranscriptExport {
  callTranscripts: {
    callId: string;
    transcript: {
      speakerId: string;
      topic?: string | null;
      sentences: { start: number; end?: number; text: string }[];
    }[];
  }[];
  /** Accepted here too, so one JSON file can carry both. */
  parties?: GongParty[];
  /** Or the `/v2/calls/extensive` shape alongside. */
  calls?: { metaData?: { id?: string }; parties?: GongParty[] }[];
  [unknownField: string]: unknown;
}

export interface GongImportOptions extends ImporterOptions {
  /** Maps speakerId to names. Defaults to `parties` (or `calls[].parties`) inside the JSON. */
  parties?: GongParty[];
  /** Which call of the export; needed when it holds more than one. */
  callId?: string;
}

export interface GongImport {
  segments: ImportedSegment[];
  /** External parties as `customer` participants (internal ones may include the rep, so they are left out). */
  participants: ParticipantInput[];
}

function invalid(detail: string): TranscriptImportError {
  return new TranscriptImportError('invalid_format', `${detail} ${EXPECTED_LAYOUT.gong}`, 'gong');
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * Converts Gong's transcript JSON to segments: one segment per monologue (its sentences
 * joined), starting at its first sentence's `start` (ms), labelled with the party's name.
 * A speakerId without a party becomes "Speaker <id>" (with a warning).
 */
export function parseGong(input: string | unknown, options: GongImportOptions = {}): GongImport {
  let json: unknown = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input.replace(/^\uFEFF/, ''));
    } catch {
      throw invalid('The content is not JSON.');
    }
  }
  if (!isRecord(json) || !Array.isArray(json.callTranscripts)) throw invalid('No "callTranscripts" array.');
  const doc = json as GongTranscriptExport;
  const calls = doc.callTranscripts.filter(isRecord);
  let call = calls[0];
  if (options.callId !== undefined) {
    call = calls.find((c) => String(c.callId) === options.callId);
    if (!call) throw invalid(`No call with callId ${options.callId} in the export.`);
  } else if (calls.length > 1) {
    throw new TranscriptImportError(
      'call_not_selected',
      `The Gong export holds ${calls.length} calls (${calls.map((c) => c.callId).join(', ')}); pass callId to choose one.`,
      'gong',
    );
  }
  if (!call || !Array.isArray(call.transcript)) throw invalid('The call has no "transcript" array.');

  const parties =
    options.parties ??
    doc.parties ??
    doc.calls?.find((c) => c.metaData?.id === undefined || String(c.metaData.id) === String(call.callId))
      ?.parties ??
    [];
  const names = new Map<string, string>();
  for (const p of parties) {
    if (!isRecord(p) || p.speakerId == null) continue;
    const label = cleanSpeaker(String(p.name ?? '') || String(p.emailAddress ?? ''));
    if (label) names.set(String(p.speakerId), label);
  }

  const out = new SegmentCollector('gong', options);
  const unnamed = new Set<string>();
  for (const mono of call.transcript) {
    if (!isRecord(mono) || !Array.isArray(mono.sentences)) continue;
    const id = String(mono.speakerId ?? '');
    let speaker = names.get(id);
    if (!speaker) {
      unnamed.add(id);
      speaker = id ? `Speaker ${id}` : 'Unknown speaker';
    }
    const sentences = mono.sentences.filter((s) => isRecord(s) && typeof s.text === 'string');
    const text = collapseWhitespace(sentences.map((s) => s.text).join(' '));
    const start = sentences.find((s) => typeof s.start === 'number' && Number.isFinite(s.start))?.start;
    out.add(speaker, text, start === undefined ? null : Math.max(0, Math.round(start)));
  }
  if (unnamed.size > 0) {
    options.onWarning?.(
      `No party names for speakerId ${[...unnamed].join(', ')}: labelled "Speaker <id>". Pass the call's parties to use names.`,
    );
  }
  const participants: ParticipantInput[] = [];
  for (const p of parties) {
    if (!isRecord(p) || p.affiliation !== 'External') continue;
    const name = cleanSpeaker(String(p.name ?? ''));
    if (!name) continue;
    participants.push({
      role: 'customer',
      name,
      ...(p.emailAddress ? { email: String(p.emailAddress) } : {}),
    });
  }
  return { segments: out.finish(), participants };
}
