import { setTimeout as delay } from 'node:timers/promises';
import { CallscoreApiError, CallscoreError, CallscoreNetworkError } from './errors.js';
import {
  isResolvedRecordingFile,
  resolveRecordingFile,
  type RecordingFile,
  type ResolvedRecordingFile,
} from './recording-file.js';
import type {
  Call,
  CallIngestResult,
  CreateCallRequest,
  CreateRecordingRequest,
  ErrorFieldDetail,
  OpenApiDocument,
  RecordingContentType,
  RecordingUpload,
} from './types.js';
import { CLIENT_VERSION } from './version.js';

export const DEFAULTS = {
  /** 500, 502, 504, network errors and timeouts back off 2, 4, 8, 16 s: four retries. */
  maxRetries: 4,
  retryBaseDelayMs: 2_000,
  /** No single back-off wait is longer than this, however large maxRetries is. */
  maxBackoffMs: 60_000,
  /** Retry-After values above this are shortened to it (the service never sends more than 60). */
  maxRetryAfterSeconds: 60,
  /** The spec: "Clients should use a timeout of at least 60 seconds" for POST /v1/calls. */
  createCallTimeoutMs: 60_000,
  timeoutMs: 30_000,
  /** The upload URL lives 15 minutes; 200 MB at ~3 Mbit/s still fits in 10. */
  uploadTimeoutMs: 600_000,
} as const;

export type Operation = 'createCall' | 'getCall' | 'createRecording' | 'uploadRecording' | 'getOpenApi';

/** Passed to `onRequest` before every HTTP attempt (first try and each retry). */
export interface RequestInfo {
  operation: Operation;
  method: string;
  url: string;
  /** 1 for the first try. */
  attempt: number;
  /** The timeout this attempt runs under (AbortSignal.timeout). */
  timeoutMs: number;
}

/** Passed to `onRetry` before each wait. */
export interface RetryInfo {
  operation: Operation;
  /** The attempt that failed (1 = first try). */
  attempt: number;
  /** How long the client will wait before the next attempt. */
  delayMs: number;
  error: CallscoreError;
}

export interface CallscoreClientOptions {
  /** The API base, ending in `/v1` (a trailing slash is tolerated), e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  /** `svc_sk_...`. Needed by every endpoint except `getOpenApi`. */
  apiKey?: string;
  /** A fetch implementation; defaults to Node's global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Prepended to the client's own User-Agent (`callscore-client-js/x.y.z node/vX`). */
  userAgent?: string;
  /** Retries after the first attempt (default 4). 0 disables retrying. */
  maxRetries?: number;
  /** First back-off delay; doubles on each retry (default 2000 ms: 2, 4, 8, 16 s). */
  retryBaseDelayMs?: number;
  /** Upper bound on a honoured Retry-After, in seconds (default 60). */
  maxRetryAfterSeconds?: number;
  /** Timeout of `createCall` attempts (default 60,000 ms). */
  createCallTimeoutMs?: number;
  /** Timeout of other API attempts (default 30,000 ms). */
  timeoutMs?: number;
  /** Timeout of the recording PUT (default 600,000 ms). */
  uploadTimeoutMs?: number;
  /** How the client waits between attempts; inject a fake in tests. Must reject when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onRequest?: (info: RequestInfo) => void;
  onRetry?: (info: RetryInfo) => void;
}

/** Per-call options accepted by every method. */
export interface RequestOptions {
  /** Cancels the request and any wait between retries; the abort reason is thrown as is. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface RecordingInput {
  /** A path, the bytes, or a stream (give `size` for streams to avoid buffering them in memory). */
  file: RecordingFile;
  contentType: RecordingContentType;
  /** Reported to the service; defaults to the file's base name for paths. */
  filename?: string;
  /** Exact byte size of a stream. Ignored for paths and buffers. */
  size?: number;
}

export interface CallWithRecordingResult {
  call: CallIngestResult;
  recording: RecordingUpload;
}

interface RequestSpec {
  operation: Operation;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: () => BodyInit;
  timeoutMs: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(ms, undefined, signal ? { signal } : undefined);

function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http or https, got ${url.protocol}`);
  }
  if (url.search || url.hash) throw new TypeError('baseUrl must not carry a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    throw new TypeError(`baseUrl must end in /v1 (the API version prefix), got ${JSON.stringify(baseUrl)}`);
  }
  return url.origin + path;
}

/**
 * Parses Retry-After. The contract sends integer seconds; an HTTP-date (RFC 9110) is accepted too.
 * Returns null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP-date names its weekday and month; Date.parse would also read "1.5" or "-1" as a (past) date.
  if (!/^[A-Za-z]{3}, /.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function errorFromResponse(res: Response, text: string, fallbackCode: string): CallscoreApiError {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page, an object store's XML): keep the text.
  }
  const env = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const fields: ErrorFieldDetail[] = Array.isArray(env?.fields)
    ? env.fields.filter((f): f is ErrorFieldDetail => isRecord(f) && typeof f.field === 'string')
    : [];
  const code = typeof env?.code === 'string' ? env.code : fallbackCode;
  const message =
    typeof env?.message === 'string'
      ? env.message
      : `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${text ? `: ${text.slice(0, 200)}` : ''}`;
  const requestId =
    typeof env?.request_id === 'string' ? env.request_id : (res.headers.get('x-request-id') ?? null);
  return new CallscoreApiError({
    status: res.status,
    code,
    message,
    fields,
    requestId,
    retryAfter: parseRetryAfter(res.headers.get('retry-after')),
    body,
  });
}

/**
 * Client of the Callscore call-scoring API v1.
 *
 * Retry rules (from the contract): 429 and 503 wait `Retry-After` then retry; 500 (and 502/504),
 * network errors and timeouts back off 2, 4, 8, 16 s; every other 4xx is thrown at once.
 * Retrying POST /v1/calls is safe because calls are idempotent on (provider, external_id).
 */
export class CallscoreClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #userAgent: string;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #onRequest: ((info: RequestInfo) => void) | undefined;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;
  /** Effective settings, after defaults. */
  readonly settings: {
    readonly maxRetries: number;
    readonly retryBaseDelayMs: number;
    readonly maxRetryAfterSeconds: number;
    readonly createCallTimeoutMs: number;
    readonly timeoutMs: number;
    readonly uploadTimeoutMs: number;
  };

  constructor(options: CallscoreClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey;
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function')
      throw new TypeError('no fetch implementation: use Node >= 20 or pass options.fetch');
    this.#fetch = f;
    const own = `callscore-client-js/${CLIENT_VERSION} node/${process.version}`;
    this.#userAgent = options.userAgent ? `${options.userAgent} ${own}` : own;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#onRequest = options.onRequest;
    this.#onRetry = options.onRetry;
    this.settings = Object.freeze({
      maxRetries: nonNegativeInt('maxRetries', options.maxRetries ?? DEFAULTS.maxRetries),
      retryBaseDelayMs: nonNegativeInt(
        'retryBaseDelayMs',
        options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
      ),
      maxRetryAfterSeconds: nonNegativeInt(
        'maxRetryAfterSeconds',
        options.maxRetryAfterSeconds ?? DEFAULTS.maxRetryAfterSeconds,
      ),
      createCallTimeoutMs: positiveInt(
        'createCallTimeoutMs',
        options.createCallTimeoutMs ?? DEFAULTS.createCallTimeoutMs,
      ),
      timeoutMs: positiveInt('timeoutMs', options.timeoutMs ?? DEFAULTS.timeoutMs),
      uploadTimeoutMs: positiveInt('uploadTimeoutMs', options.uploadTimeoutMs ?? DEFAULTS.uploadTimeoutMs),
    });
  }

  /** `POST /v1/calls`: creates a call (202, `created: true`) or returns the existing one (200, `created: false`). */
  async createCall(body: CreateCallRequest, options: RequestOptions = {}): Promise<CallIngestResult> {
    return this.#json<CallIngestResult>(
      this.#apiSpec('createCall', 'POST', '/calls', body, options, this.settings.createCallTimeoutMs),
    );
  }

  /** `GET /v1/calls/{id}`: status and in-app link of a call. Poll at most once a minute. */
  async getCall(id: string, options: RequestOptions = {}): Promise<Call> {
    if (typeof id !== 'string' || id === '') throw new TypeError('getCall needs a call id');
    return this.#json<Call>(
      this.#apiSpec(
        'getCall',
        'GET',
        `/calls/${encodeURIComponent(id)}`,
        undefined,
        options,
        this.settings.timeoutMs,
      ),
    );
  }

  /** `POST /v1/recordings`: issues a presigned upload location (valid 15 minutes). */
  async createRecording(
    body: CreateRecordingRequest,
    options: RequestOptions = {},
  ): Promise<RecordingUpload> {
    return this.#json<RecordingUpload>(
      this.#apiSpec('createRecording', 'POST', '/recordings', body, options, this.settings.timeoutMs),
    );
  }

  /** `GET /v1/openapi.json`: the machine-readable contract. Sent without Authorization. */
  async getOpenApi(options: RequestOptions = {}): Promise<OpenApiDocument> {
    return this.#json<OpenApiDocument>({
      operation: 'getOpenApi',
      method: 'GET',
      url: `${this.baseUrl}/openapi.json`,
      headers: { accept: 'application/json', 'user-agent': this.#userAgent },
      timeoutMs: options.timeoutMs ?? this.settings.timeoutMs,
      maxRetries: options.maxRetries ?? this.settings.maxRetries,
      signal: options.signal,
    });
  }

  /**
   * PUTs a recording's bytes to `upload.upload_url` with exactly `upload.upload_headers`
   * (plus the Content-Length of the bytes) and no Authorization header. Paths and buffers are
   * retried like API calls on network errors and 5xx; streams are sent once.
   */
  async uploadRecording(
    upload: RecordingUpload,
    file: RecordingFile | ResolvedRecordingFile,
    options: RequestOptions & { size?: number } = {},
  ): Promise<void> {
    const src = isResolvedRecordingFile(file) ? file : await resolveRecordingFile(file, options.size);
    const headers: Record<string, string> = {};
    let declaredLength: string | undefined;
    for (const [name, value] of Object.entries(upload.upload_headers ?? {})) {
      if (name.toLowerCase() === 'authorization') continue; // never send credentials to the store
      if (name.toLowerCase() === 'content-length') declaredLength = value;
      headers[name] = value;
    }
    if (declaredLength !== undefined && Number(declaredLength) !== src.size) {
      throw new RangeError(
        `upload_headers require Content-Length ${declaredLength} but the file has ${src.size} bytes`,
      );
    }
    // An exact length: presigned URLs refuse chunked transfer encoding.
    if (declaredLength === undefined) headers['content-length'] = String(src.size);
    await this.#send({
      operation: 'uploadRecording',
      method: upload.upload_method || 'PUT',
      url: upload.upload_url,
      headers,
      body: () => src.open() as BodyInit,
      timeoutMs: options.timeoutMs ?? this.settings.uploadTimeoutMs,
      maxRetries: src.replayable ? (options.maxRetries ?? this.settings.maxRetries) : 0,
      signal: options.signal,
    });
  }

  /**
   * Creates the recording upload, PUTs the bytes, then creates the call with its `recording_id`.
   * If the last step fails, the thrown error carries `recordingId` so the call can be resent
   * without uploading again.
   */
  async createCallWithRecording(
    call: Omit<CreateCallRequest, 'recording_id'>,
    recording: RecordingInput,
    options: RequestOptions = {},
  ): Promise<CallWithRecordingResult> {
    const src = await resolveRecordingFile(recording.file, recording.size);
    const filename = recording.filename ?? src.filename;
    const upload = await this.createRecording(
      { content_type: recording.contentType, size_bytes: src.size, ...(filename ? { filename } : {}) },
      options,
    );
    await this.uploadRecording(upload, src, options);
    try {
      const result = await this.createCall({ ...call, recording_id: upload.recording_id }, options);
      return { call: result, recording: upload };
    } catch (err) {
      if (err instanceof CallscoreError) err.recordingId = upload.recording_id;
      throw err;
    }
  }

  #apiSpec(
    operation: Operation,
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions,
    defaultTimeoutMs: number,
  ): RequestSpec {
    if (!this.#apiKey) throw new TypeError(`${operation} needs an API key: pass apiKey to CallscoreClient`);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.#apiKey}`,
      'user-agent': this.#userAgent,
    };
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    return {
      operation,
      method,
      url: this.baseUrl + path,
      headers,
      ...(payload !== undefined ? { body: () => payload } : {}),
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      maxRetries: options.maxRetries ?? this.settings.maxRetries,
      signal: options.signal,
    };
  }

  async #json<T>(spec: RequestSpec): Promise<T> {
    const { res, text } = await this.#send(spec);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new CallscoreApiError({
        status: res.status,
        code: 'invalid_response',
        message: `${spec.method} ${spec.url} answered ${res.status} with a body that is not JSON`,
        requestId: res.headers.get('x-request-id'),
        body: text,
      });
    }
    if (!isRecord(data)) {
      throw new CallscoreApiError({
        status: res.status,
        code: 'invalid_response',
        message: `${spec.method} ${spec.url} answered ${res.status} with JSON that is not an object`,
        requestId: res.headers.get('x-request-id'),
        body: data,
      });
    }
    // Unknown fields are kept as they are: v1 only ever adds.
    return data as T;
  }

  /** Runs the attempts of one request under the retry rules. */
  async #send(spec: RequestSpec): Promise<{ res: Response; text: string }> {
    for (let attempt = 1; ; attempt++) {
      let error: CallscoreError;
      try {
        return await this.#attempt(spec, attempt);
      } catch (err) {
        // Anything that is not ours (the caller's abort reason, a programming error) ends here.
        if (!(err instanceof CallscoreError)) throw err;
        error = err;
      }
      error.attempts = attempt;
      const delayMs = this.#retryDelay(error, attempt);
      if (delayMs === null || attempt > spec.maxRetries) throw error;
      this.#onRetry?.({ operation: spec.operation, attempt, delayMs, error });
      await this.#sleep(delayMs, spec.signal);
    }
  }

  async #attempt(spec: RequestSpec, attempt: number): Promise<{ res: Response; text: string }> {
    spec.signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(spec.timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
    this.#onRequest?.({
      operation: spec.operation,
      method: spec.method,
      url: spec.url,
      attempt,
      timeoutMs: spec.timeoutMs,
    });
    const transportError = (err: unknown): unknown => {
      if (spec.signal?.aborted) return spec.signal.reason;
      if (timeout.aborted) {
        return new CallscoreNetworkError(`${spec.method} ${spec.url} timed out after ${spec.timeoutMs} ms`, {
          cause: err,
          timedOut: true,
        });
      }
      const detail =
        err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      return new CallscoreNetworkError(`${spec.method} ${spec.url} failed: ${detail}`, { cause: err });
    };
    let res: Response;
    try {
      const body = spec.body?.();
      const init: RequestInit & { duplex?: 'half' } = { method: spec.method, headers: spec.headers, signal };
      if (body !== undefined) {
        init.body = body;
        if (body instanceof ReadableStream) init.duplex = 'half';
      }
      res = await this.#fetch(spec.url, init);
    } catch (err) {
      if (err instanceof RangeError) throw err; // a recording stream that lied about its size
      if (err instanceof TypeError && err.cause instanceof RangeError) throw err.cause;
      throw transportError(err);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw transportError(err);
    }
    if (res.ok) return { res, text };
    throw errorFromResponse(
      res,
      text,
      spec.operation === 'uploadRecording' ? 'upload_failed' : `http_${res.status}`,
    );
  }

  /** Milliseconds to wait before retrying after `error`, or null when it must not be retried. */
  #retryDelay(error: CallscoreError, attempt: number): number | null {
    const backoff = Math.min(this.settings.retryBaseDelayMs * 2 ** (attempt - 1), DEFAULTS.maxBackoffMs);
    if (error instanceof CallscoreNetworkError) return backoff;
    if (!(error instanceof CallscoreApiError)) return null;
    if (error.status === 429 || error.status === 503) {
      // Retry-After is the server's word; without one, fall back to backing off.
      if (error.retryAfter === null) return backoff;
      return Math.min(error.retryAfter, this.settings.maxRetryAfterSeconds) * 1000;
    }
    if (error.status === 500 || error.status === 502 || error.status === 504) return backoff;
    return null;
  }
}

function nonNegativeInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}

function positiveInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive integer`);
  return value;
}
