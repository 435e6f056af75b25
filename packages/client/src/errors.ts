import type { ErrorCode, ErrorFieldDetail } from './types.js';

/** Base class of every error the client throws (importer errors excepted). */
export class CallscoreError extends Error {
  /** How many HTTP attempts were made before this error was thrown (1 = no retry). */
  attempts = 1;
  /**
   * Set by `createCallWithRecording` when the recording was uploaded but a later step failed:
   * resend `createCall` with this `recording_id` instead of uploading again.
   */
  recordingId?: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The server (or the recording store) answered with a non-2xx status.
 * `code` is the envelope's `error.code`, an open enum: compare against known codes, never
 * parse `message`.
 */
export class CallscoreApiError extends CallscoreError {
  readonly status: number;
  readonly code: ErrorCode;
  /** Offending request fields on some 422 responses (paths such as `rep.email`); else []. */
  readonly fields: ErrorFieldDetail[];
  /** `error.request_id`, or the `X-Request-Id` header; quote it to support. */
  readonly requestId: string | null;
  /** `Retry-After` in seconds, when the response carried one (429, 503). */
  readonly retryAfter: number | null;
  /** The parsed response body (the envelope, or the raw text when it was not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: ErrorCode;
    message: string;
    fields?: ErrorFieldDetail[];
    requestId?: string | null;
    retryAfter?: number | null;
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? [];
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.body = init.body;
  }
}

/** No usable HTTP response: connection refused or reset, DNS failure, or the timeout expired. */
export class CallscoreNetworkError extends CallscoreError {
  /** true when the per-request timeout expired (the request may still have reached the server). */
  readonly timedOut: boolean;

  constructor(message: string, init: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: init.cause });
    this.timedOut = init.timedOut ?? false;
  }
}
