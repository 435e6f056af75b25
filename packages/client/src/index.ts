/** @callscore/client: typed client for the Callscore call-scoring API v1, and transcript importers. */
export { CLIENT_VERSION } from './version.js';
export {
  CallscoreClient,
  DEFAULTS,
  parseRetryAfter,
  type CallscoreClientOptions,
  type CallWithRecordingResult,
  type Operation,
  type RecordingInput,
  type RequestInfo,
  type RequestOptions,
  type RetryInfo,
} from './client.js';
export { CallscoreApiError, CallscoreError, CallscoreNetworkError } from './errors.js';
export {
  MAX_RECORDING_BYTES,
  resolveRecordingFile,
  type RecordingFile,
  type ResolvedRecordingFile,
} from './recording-file.js';
export type * from './types.js';
export * from './importers/index.js';
