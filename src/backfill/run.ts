/**
 * The backfill: reads calls line by line, sends each with the client at a steady pace (the client applies the
 * contract's retry rules), records accepted calls in the journal, and writes one result line per input call.
 *
 * Stopping: when `signal` aborts (SIGINT in the CLI), no new request starts, requests in flight finish (a retry
 * wait in progress is cut short: that line is reported `interrupted` and sent again by the next run), the
 * journal is flushed, the results file is written, and the report says `interrupted`.
 * A 401/403 (the key or account cannot work) or an unknown route (wrong base URL) stops the run the same way,
 * since every later line would fail alike; so do three lines in a row whose retries were exhausted (the API
 * looks down). Lines not attempted are reported with code `not_sent`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  CallscoreApiError,
  CallscoreClient,
  CallscoreNetworkError,
  type CallscoreClientOptions,
  type CreateCallRequest,
} from '@callscore/client';
import {
  countCalls,
  peekExternalId,
  prepareLine,
  readLines,
  resolveInput,
  type InputSource,
  type PreparedLine,
} from './input.js';
import { Journal, requestKey } from './journal.js';
import { Pacer } from './pacer.js';
import { Progress, formatDuration, type Counts } from './progress.js';
import { failedLine, localError, writeResultsFile, type ResultError, type ResultLine } from './results.js';
import { createCallValidator } from './validate.js';

export const DEFAULT_RATE = 1.5;
export const DEFAULT_CONCURRENCY = 4;
/** Lines in a row that failed after all retries (network, 5xx, 429) before the run gives up. */
const MAX_CONSECUTIVE_UNAVAILABLE = 3;
/** Failures printed one by one on stderr; the rest are only in the results file. */
const MAX_NOTES = 50;

export interface Writable {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface BackfillOptions {
  /** A JSONL file, or a folder with manifest.jsonl. */
  input: string;
  /** API base (`https://host/v1`; a bare origin gets `/v1`). Required unless dryRun. */
  baseUrl?: string;
  apiKey?: string;
  /** Requests started per second (default 1.5). */
  rate?: number;
  /** Requests in flight at most (default 4): slow calls (speaker inference) must not drag the pace down. */
  concurrency?: number;
  /** Results file. Default for a real run: `<input>.results.jsonl` (a folder: `<folder>/results.jsonl`). A dry
   * run writes one only when this is given. The journal is `<out>.journal`. */
  out?: string;
  dryRun?: boolean;
  /** Graceful stop (see the file comment). */
  signal?: AbortSignal;
  /** Progress and notes (default process.stderr). */
  stderr?: Writable;
  /** Extra client options (a custom fetch, retry timing); the backfill's own sleep and onRetry wrap them. */
  client?: Partial<CallscoreClientOptions>;
}

export interface BackfillReport {
  total: number;
  counts: Counts;
  /** Dry run: lines that passed validation. */
  valid: number;
  outPath: string | null;
  journalPath: string | null;
  interrupted: boolean;
  /** Why the run stopped before the end, when a fatal answer stopped it. */
  stoppedBy: ResultError | null;
  elapsedMs: number;
  exitCode: 0 | 1 | 130;
  /** Human summary (the CLI prints it on stdout). */
  summary: string;
}

export class BackfillUsageError extends Error {}

export function defaultOutPath(source: InputSource): string {
  if (source.kind === 'folder') return path.join(source.baseDir, 'results.jsonl');
  return `${source.file.replace(/\.(jsonl|ndjson|json)$/i, '')}.results.jsonl`;
}

/** Accepts the API base with or without the `/v1` suffix when it is a bare origin. */
export function normalizeApiBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BackfillUsageError(`--base-url is not a URL: ${raw}`);
  }
  if (url.pathname === '/' || url.pathname === '') return `${url.origin}/v1`;
  return raw;
}

function checkWritable(file: string): void {
  const dir = path.dirname(path.resolve(file));
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new BackfillUsageError(`Cannot write the results file ${file}: ${dir} is not a writable folder.`);
  }
}

function describeError(e: ResultError, status?: number): string {
  const fields = e.fields.length ? ` [${e.fields.map((f) => `${f.field}: ${f.message}`).join('; ')}]` : '';
  const rid = e.request_id ? ` (request ${e.request_id})` : '';
  return `${status ? `${status} ` : ''}${e.code}: ${e.message}${fields}${rid}`;
}

function isFatal(err: CallscoreApiError): boolean {
  return err.status === 401 || err.status === 403 || err.code === 'route_not_found';
}

function isUnavailable(err: unknown): boolean {
  return (
    err instanceof CallscoreNetworkError ||
    (err instanceof CallscoreApiError && (err.status === 429 || err.status >= 500))
  );
}

export async function runBackfill(options: BackfillOptions): Promise<BackfillReport> {
  const rate = options.rate ?? DEFAULT_RATE;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!(rate > 0) || !Number.isFinite(rate))
    throw new BackfillUsageError('--rate must be a positive number of calls per second.');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new BackfillUsageError('--concurrency must be a positive integer.');
  let source: InputSource;
  try {
    source = resolveInput(options.input);
  } catch (err) {
    throw new BackfillUsageError((err as Error).message);
  }
  const stderr = options.stderr ?? process.stderr;
  const total = await countCalls(source.file);
  const progress = new Progress({ total, write: (s) => stderr.write(s), tty: stderr.isTTY === true });
  let notes = 0;
  const note = (message: string) => {
    if (++notes <= MAX_NOTES) progress.note(message);
    else if (notes === MAX_NOTES + 1) progress.note('(more failures: see the results file)');
  };
  return options.dryRun
    ? dryRun(options, source, total, progress, note)
    : liveRun(options, source, total, rate, concurrency, progress, note);
}

async function dryRun(
  options: BackfillOptions,
  source: InputSource,
  total: number,
  progress: Progress,
  note: (m: string) => void,
): Promise<BackfillReport> {
  const outPath = options.out ?? null;
  if (outPath) checkWritable(outPath);
  const validate = createCallValidator();
  const results: ResultLine[] = [];
  let valid = 0;
  let interrupted = false;
  for await (const raw of readLines(source.file)) {
    if (options.signal?.aborted) {
      interrupted = true;
      break;
    }
    const prep = await prepareLine(raw, source.baseDir);
    for (const w of prep.warnings) note(`warning: ${w}`);
    const error = prep.error ?? validate(prep.body);
    if (error) {
      progress.counts.failed++;
      results.push(failedLine(raw.line, prep.externalId, error));
      note(`line ${raw.line}${prep.externalId ? ` (${prep.externalId})` : ''}: ${describeError(error)}`);
    } else {
      valid++;
      results.push({
        line: raw.line,
        external_id: prep.externalId,
        id: null,
        status: 'valid',
        created: false,
        error: null,
      });
    }
  }
  if (outPath) writeResultsFile(outPath, results);
  const invalid = progress.counts.failed;
  const summary =
    `Dry run${interrupted ? ' (interrupted)' : ''}: ${results.length} of ${total} call(s) checked, ${valid} valid, ${invalid} invalid. Nothing was sent.` +
    (outPath ? `\nResults: ${outPath}` : '');
  return {
    total,
    counts: progress.counts,
    valid,
    outPath,
    journalPath: null,
    interrupted,
    stoppedBy: null,
    elapsedMs: progress.elapsedMs(),
    exitCode: interrupted ? 130 : invalid > 0 ? 1 : 0,
    summary,
  };
}

async function liveRun(
  options: BackfillOptions,
  source: InputSource,
  total: number,
  rate: number,
  concurrency: number,
  progress: Progress,
  note: (m: string) => void,
): Promise<BackfillReport> {
  if (!options.baseUrl) throw new BackfillUsageError('--base-url (or CALLSCORE_BASE_URL) is required.');
  if (!options.apiKey) throw new BackfillUsageError('--api-key (or CALLSCORE_API_KEY) is required.');
  const outPath = options.out ?? defaultOutPath(source);
  checkWritable(outPath);

  // Aborted by the caller's signal (interruption); the client's retry waits listen to it.
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const pacer = new Pacer(rate);
  const innerSleep =
    options.client?.sleep ??
    ((ms: number, signal?: AbortSignal) => delay(ms, undefined, signal ? { signal } : undefined));
  let client: CallscoreClient;
  try {
    client = new CallscoreClient({
      userAgent: 'callscore-backfill',
      ...options.client,
      baseUrl: normalizeApiBase(options.baseUrl),
      apiKey: options.apiKey,
      sleep: (ms, signal) => innerSleep(ms, signal ? AbortSignal.any([signal, stop.signal]) : stop.signal),
      onRetry: (info) => {
        options.client?.onRetry?.(info);
        const e = info.error;
        const what = e instanceof CallscoreApiError ? `${e.status} ${e.code}` : e.message;
        if (e instanceof CallscoreApiError && (e.status === 429 || e.status === 503))
          pacer.pauseFor(info.delayMs);
        progress.note(`retrying in ${formatDuration(info.delayMs)} after ${what}`);
      },
    });
  } catch (err) {
    throw new BackfillUsageError((err as Error).message);
  }

  const journalPath = `${outPath}.journal`;
  const journal = new Journal(journalPath, client.baseUrl, options.apiKey);
  const results: ResultLine[] = [];
  const counts = progress.counts;
  const inFlight = new Set<Promise<void>>();
  // An object, so TypeScript does not narrow it to null: the send tasks set it.
  const halt: { by: ResultError | null } = { by: null };
  let unavailableInARow = 0;
  progress.start(rate);
  if (journal.size)
    progress.note(
      `Resuming: ${journalPath} holds ${journal.size} finished call(s); they are not sent again.`,
    );

  /** Why no further request starts, or null while the run goes on. */
  const notSendingWhy = (): string | null =>
    halt.by
      ? `not sent: the run stopped after ${halt.by.code}`
      : stop.signal.aborted
        ? 'not sent: the run was interrupted'
        : null;

  const fail = (index: number, prep: PreparedLine, error: ResultError, status?: number) => {
    counts.failed++;
    results[index] = failedLine(prep.line, prep.externalId, error);
    note(
      `line ${prep.line}${prep.externalId ? ` (${prep.externalId})` : ''}: ${describeError(error, status)}`,
    );
  };

  const send = async (index: number, prep: PreparedLine, key: string): Promise<void> => {
    try {
      const r = await client.createCall(prep.body as CreateCallRequest);
      const externalId = r.external_id ?? prep.externalId;
      journal.record({
        key,
        line: prep.line,
        external_id: externalId,
        id: r.id,
        status: r.status,
        created: r.created,
      });
      results[index] = {
        line: prep.line,
        external_id: externalId,
        id: r.id,
        status: r.status,
        created: r.created,
        error: null,
      };
      counts[r.created ? 'created' : 'existing']++;
      unavailableInARow = 0;
    } catch (err) {
      if (err instanceof CallscoreApiError) {
        fail(
          index,
          prep,
          { code: err.code, message: err.message, fields: err.fields, request_id: err.requestId },
          err.status,
        );
        if (isFatal(err) && !halt.by) {
          halt.by = {
            code: err.code,
            message: `HTTP ${err.status} on line ${prep.line}: ${err.message}`,
            fields: [],
            request_id: err.requestId,
          };
        }
      } else if (err instanceof CallscoreNetworkError) {
        fail(index, prep, localError(err.timedOut ? 'timeout' : 'network_error', err.message));
      } else if (stop.signal.aborted) {
        // A retry wait cut short by the interruption: the outcome is unknown, the next run sends it again.
        counts.notSent++;
        results[index] = failedLine(
          prep.line,
          prep.externalId,
          localError('interrupted', 'interrupted while waiting to retry; sent again by the next run'),
        );
        return;
      } else {
        fail(index, prep, localError('client_error', err instanceof Error ? err.message : String(err)));
      }
      unavailableInARow = isUnavailable(err) ? unavailableInARow + 1 : 0;
      if (unavailableInARow >= MAX_CONSECUTIVE_UNAVAILABLE && !halt.by) {
        halt.by = localError(
          'api_unavailable',
          `${unavailableInARow} calls in a row failed after every retry; the API looks unavailable.`,
        );
      }
    } finally {
      progress.update();
    }
  };

  try {
    for await (const raw of readLines(source.file)) {
      const index = results.length;
      results.push(failedLine(raw.line, null, localError('not_sent', 'not sent')));
      let why = notSendingWhy();
      if (why) {
        results[index] = failedLine(raw.line, peekExternalId(raw), localError('not_sent', why));
        counts.notSent++;
        continue;
      }
      const prep = await prepareLine(raw, source.baseDir);
      for (const w of prep.warnings) note(`warning: ${w}`);
      if (prep.error) {
        fail(index, prep, prep.error);
        progress.update();
        continue;
      }
      const key = requestKey(prep.body);
      const earlier = journal.get(key);
      if (earlier) {
        results[index] = {
          line: raw.line,
          external_id: earlier.external_id,
          id: earlier.id,
          status: earlier.status,
          created: earlier.created,
          error: null,
        };
        counts.earlier++;
        progress.update();
        continue;
      }
      try {
        while (inFlight.size >= concurrency) await Promise.race(inFlight);
        await pacer.take(stop.signal);
      } catch {
        // Interrupted while waiting for a slot.
      }
      why = notSendingWhy();
      if (why) {
        results[index] = failedLine(raw.line, prep.externalId, localError('not_sent', why));
        counts.notSent++;
        continue;
      }
      progress.noteSend();
      const task: Promise<void> = send(index, prep, key).finally(() => inFlight.delete(task));
      inFlight.add(task);
      progress.update();
    }
    await Promise.all(inFlight);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    journal.close();
    progress.stop();
  }
  writeResultsFile(outPath, results);

  const interrupted = stop.signal.aborted;
  const c = counts;
  const took = formatDuration(progress.elapsedMs());
  const head = interrupted
    ? `Backfill interrupted after ${took}`
    : halt.by
      ? `Backfill stopped after ${took} by ${halt.by.code} (${halt.by.message})`
      : `Backfill finished in ${took}`;
  const summary = [
    `${head}: ${total} call(s): ${c.created} created, ${c.existing} already there, ${c.failed} failed` +
      `${c.earlier ? `, ${c.earlier} done in an earlier run` : ''}${c.notSent ? `, ${c.notSent} not sent` : ''}.`,
    `Results: ${outPath}  Journal: ${journalPath}`,
    ...(interrupted || c.notSent
      ? ['Run the same command again to resume; finished calls are skipped.']
      : []),
  ].join('\n');
  return {
    total,
    counts,
    valid: 0,
    outPath,
    journalPath,
    interrupted,
    stoppedBy: halt.by,
    elapsedMs: progress.elapsedMs(),
    exitCode: interrupted ? 130 : c.failed + c.notSent > 0 ? 1 : 0,
    summary,
  };
}
