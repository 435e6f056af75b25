/**
 * Backfill input: a JSONL file of CreateCallRequest bodies, or a folder holding `manifest.jsonl`, whose lines
 * carry the call fields plus `transcript_file` (a .vtt, .srt, .txt or Gong .json file, relative to the
 * manifest) converted to `transcript.segments` with the client's importers. Files are streamed line by line;
 * blank lines are not calls and get no result line.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { detectFormat, importTranscript, TranscriptImportError } from '@callscore/client';
import { AppError } from '../errors.js';
import { parseTranscript } from '../ingest/transcript.js';
import { localError, type ResultError } from './results.js';

export const MANIFEST_NAME = 'manifest.jsonl';

export class InputError extends Error {}

export interface InputSource {
  /** The JSONL file actually read (the manifest for a folder). */
  file: string;
  /** Where `transcript_file` names are resolved. */
  baseDir: string;
  kind: 'jsonl' | 'folder';
}

export interface RawLine {
  line: number;
  text: string;
}

export interface PreparedLine {
  line: number;
  externalId: string | null;
  /** The request to send, when the line could be read. */
  body?: unknown;
  /** Why the line cannot be sent (invalid JSON, manifest problems, transcript file problems). */
  error?: ResultError;
  /** Importer notes (text dropped before the first speaker label, ...). */
  warnings: string[];
}

export function resolveInput(input: string): InputSource {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(input);
  } catch {
    throw new InputError(`No such file or folder: ${input}`);
  }
  if (stat.isDirectory()) {
    const file = path.join(input, MANIFEST_NAME);
    if (!fs.existsSync(file)) {
      throw new InputError(
        `The folder ${input} has no ${MANIFEST_NAME} (one line per call, with "transcript_file").`,
      );
    }
    return { file, baseDir: input, kind: 'folder' };
  }
  return { file: input, baseDir: path.dirname(input), kind: 'jsonl' };
}

export async function* readLines(file: string): AsyncGenerator<RawLine> {
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const raw of rl) {
    n++;
    const text = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    yield { line: n, text };
  }
}

/** Calls in the file (non-blank lines), for progress and ETA. */
export async function countCalls(file: string): Promise<number> {
  let count = 0;
  for await (const _ of readLines(file)) count++;
  return count;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function externalIdOf(x: unknown): string | null {
  return isObject(x) && typeof x.external_id === 'string' ? x.external_id : null;
}

/** Reads only what results need (external_id), for lines that will not be sent. */
export function peekExternalId(raw: RawLine): string | null {
  try {
    return externalIdOf(JSON.parse(raw.text));
  } catch {
    return null;
  }
}

export async function prepareLine(raw: RawLine, baseDir: string): Promise<PreparedLine> {
  const { line } = raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return {
      line,
      externalId: null,
      error: localError('invalid_json', `not valid JSON (${detail})`),
      warnings: [],
    };
  }
  const externalId = externalIdOf(parsed);
  // Anything but a manifest line is sent as it is: the API (or --dry-run) judges it.
  if (!isObject(parsed) || !('transcript_file' in parsed))
    return { line, externalId, body: parsed, warnings: [] };

  const { transcript_file: name, ...call } = parsed;
  const manifestError = (message: string, field = 'transcript_file') => ({
    line,
    externalId,
    error: localError('invalid_manifest', `${field} ${message}`, [{ field, message }]),
    warnings: [],
  });
  if (typeof name !== 'string' || name === '') return manifestError('must name a transcript file');
  const given = call.transcript;
  if (given !== undefined && given !== null && !isObject(given))
    return manifestError('must be an object', 'transcript');
  if (isObject(given) && ((given.segments ?? null) !== null || (given.text ?? null) !== null)) {
    return manifestError('and transcript.segments/text cannot both be given');
  }

  const file = path.resolve(baseDir, name);
  let content: Buffer;
  try {
    content = await fs.promises.readFile(file);
  } catch (err) {
    const why =
      (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'does not exist'
        : `cannot be read (${(err as Error).message})`;
    return {
      line,
      externalId,
      error: localError('transcript_file_not_found', `${name} ${why}`, [
        { field: 'transcript_file', message: why },
      ]),
      warnings: [],
    };
  }
  // Plain text is the contract's own form: sent as transcript.text and checked here with the API's own parser, so a
  // dry run finds what the API would refuse (the importer's reading of a text file could differ).
  const format = detectFormat(name, content);
  if (format === 'text') {
    const text = new TextDecoder().decode(content);
    try {
      parseTranscript({ text });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const error = localError(err.code, `${name}: ${err.message}`, [
        { field: 'transcript_file', message: err.message },
      ]);
      return { line, externalId, error, warnings: [] };
    }
    const transcript = { ...(isObject(given) ? given : {}), text };
    return { line, externalId, body: { ...call, transcript }, warnings: [] };
  }
  try {
    const imported = importTranscript(content, { filename: name, format });
    const body: Record<string, unknown> = {
      ...call,
      transcript: { ...(isObject(given) ? given : {}), segments: imported.segments },
    };
    if (imported.participants?.length && (call.participants ?? null) === null)
      body.participants = imported.participants;
    return { line, externalId, body, warnings: imported.warnings.map((w) => `line ${line}: ${name}: ${w}`) };
  } catch (err) {
    if (!(err instanceof TranscriptImportError)) throw err;
    return {
      line,
      externalId,
      // The importer's codes match the server's where they overlap (transcript_unlabeled).
      error: localError(err.code, `${name}: ${err.message}`, [
        { field: 'transcript_file', message: err.message },
      ]),
      warnings: [],
    };
  }
}
