import {
  EXPECTED_LAYOUT,
  type ImportResult,
  type ImporterOptions,
  TranscriptImportError,
  type TranscriptFormat,
} from './common.js';
import { type GongParty, parseGong } from './gong.js';
import { parsePlainText } from './plain-text.js';
import { parseSrt } from './srt.js';
import { parseWebVtt } from './webvtt.js';

export {
  EXPECTED_LAYOUT,
  TranscriptImportError,
  type ImportedSegment,
  type ImporterOptions,
  type ImportResult,
  type TranscriptFormat,
  type TranscriptImportErrorCode,
} from './common.js';
export {
  parseGong,
  type GongImport,
  type GongImportOptions,
  type GongParty,
  type GongTranscriptExport,
} from './gong.js';
export { parsePlainText } from './plain-text.js';
export { parseSrt, parseSrtTimestamp } from './srt.js';
export { parseVttTimestamp, parseWebVtt } from './webvtt.js';

const FORMATS: readonly TranscriptFormat[] = ['webvtt', 'srt', 'gong', 'text'];

function toText(content: string | Uint8Array): string {
  return typeof content === 'string' ? content : new TextDecoder('utf-8').decode(content);
}

/**
 * Guesses a transcript's format. Clear content signatures win (a `WEBVTT` header, Gong JSON,
 * an SRT first cue), then the file extension (.vtt, .srt, .json, .txt), then cue timing
 * lines; anything else is read as plain text.
 */
export function detectFormat(
  filename: string | undefined | null,
  content: string | Uint8Array,
): TranscriptFormat {
  const text = toText(content).replace(/^\uFEFF/, '');
  const head = text.trimStart();
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(head)) return 'webvtt';
  if (head.startsWith('{')) {
    try {
      const json: unknown = JSON.parse(head);
      if (typeof json === 'object' && json !== null && 'callTranscripts' in json) return 'gong';
    } catch {
      // Not JSON after all.
    }
  }
  if (/^\d+[ \t]*\r?\n[ \t]*\d+:\d{2}:\d{2},\d{1,3}[ \t]+-->/.test(head)) return 'srt';
  const ext = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase();
  if (ext === 'vtt' || ext === 'webvtt') return 'webvtt';
  if (ext === 'srt') return 'srt';
  if (ext === 'json') return 'gong';
  if (ext === 'txt' || ext === 'text' || ext === 'md') return 'text';
  if (/^[ \t]*(?:\d+:)?\d{2}:\d{2},\d{3}[ \t]+-->/m.test(head)) return 'srt';
  if (/^[ \t]*(?:\d+:)?\d{2}:\d{2}\.\d{3}[ \t]+-->/m.test(head)) return 'webvtt';
  return 'text';
}

export interface ImportTranscriptOptions extends ImporterOptions {
  /** Skip detection. */
  format?: TranscriptFormat;
  /** Helps detection by extension. */
  filename?: string;
  /** Gong: names for speaker ids (else read from the JSON). */
  parties?: GongParty[];
  /** Gong: which call of a multi-call export. */
  callId?: string;
}

/**
 * Converts a transcript file (WebVTT, SRT, Gong JSON or the contract's plain-text layouts)
 * to `transcript.segments`. Throws TranscriptImportError when it has no speaker labels,
 * with the layout that was expected.
 */
export function importTranscript(
  content: string | Uint8Array | object,
  options: ImportTranscriptOptions = {},
): ImportResult {
  if (options.format !== undefined && !FORMATS.includes(options.format)) {
    throw new TypeError(`format must be one of ${FORMATS.join(', ')}`);
  }
  const warnings: string[] = [];
  const opts: ImporterOptions = {
    onWarning: (message) => {
      warnings.push(message);
      options.onWarning?.(message);
    },
  };
  const isParsedJson = typeof content === 'object' && !(content instanceof Uint8Array);
  if (isParsedJson && options.format !== undefined && options.format !== 'gong') {
    throw new TypeError(`a parsed object can only be a Gong export, not ${options.format}`);
  }
  const format = isParsedJson ? 'gong' : (options.format ?? detectFormat(options.filename, content));
  const source = isParsedJson ? content : toText(content);
  switch (format) {
    case 'webvtt':
      return { format, segments: parseWebVtt(source as string, opts), warnings };
    case 'srt':
      return { format, segments: parseSrt(source as string, opts), warnings };
    case 'text':
      return { format, segments: parsePlainText(source as string, opts), warnings };
    case 'gong': {
      const { segments, participants } = parseGong(source, {
        ...opts,
        ...(options.parties ? { parties: options.parties } : {}),
        ...(options.callId !== undefined ? { callId: options.callId } : {}),
      });
      return { format, segments, participants, warnings };
    }
    default:
      throw new TranscriptImportError('invalid_format', `Unknown format. ${EXPECTED_LAYOUT.text}`);
  }
}
