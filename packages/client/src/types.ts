/**
 * Request and response objects of the Callscore call-scoring API v1, derived from the types that
 * openapi-typescript generates from the server's OpenAPI 3.1 document (./generated/openapi.ts; regenerate
 * with `npm run client:types`). The generated shapes are refined where the document is looser or stricter
 * than the contract promises:
 *
 * - v1 changes are additive only: responses may carry fields and enum values not listed here, so responses
 *   keep an index signature and every enum is open (`'known' | (string & {})` keeps editor completion while
 *   accepting new values). Where the document has a closed enum (call_type, participant role), its values
 *   are the known values; where it only says "open enum" (status, skip_reason, attribution, error codes),
 *   the known values are listed here from the contract.
 * - `transcript` needs exactly one of `segments` or `text`, which the document only states in words.
 */
import type { operations, paths } from './generated/openapi.js';

export type { operations, paths } from './generated/openapi.js';

/** An open enum: the known values plus any other string the server may add within v1. */
export type OpenEnum<T extends string> = T | (string & {});

/** A response object: the fields the document lists plus any field the server adds within v1. */
type Open<T> = T & { [unknownField: string]: unknown };

// ---------------------------------------------------------------- generated shapes

type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

type GeneratedCreateCallRequest = JsonOf<paths['/v1/calls']['post']['requestBody']>;
type GeneratedTranscript = GeneratedCreateCallRequest['transcript'];
type GeneratedParticipant = NonNullable<GeneratedCreateCallRequest['participants']>[number];
type GeneratedCallIngestResult = JsonOf<paths['/v1/calls']['post']['responses'][202]>;
type GeneratedCall = JsonOf<paths['/v1/calls/{id}']['get']['responses'][200]>;
type GeneratedAttribution = NonNullable<GeneratedCall['attribution']>;
type GeneratedCreateRecordingRequest = JsonOf<paths['/v1/recordings']['post']['requestBody']>;
type GeneratedRecordingUpload = JsonOf<paths['/v1/recordings']['post']['responses'][201]>;
type GeneratedError = JsonOf<operations['createCall']['responses'][422]>['error'];
type GeneratedErrorField = NonNullable<GeneratedError['fields']>[number];
type GeneratedOpenApiDocument = JsonOf<paths['/v1/openapi.json']['get']['responses'][200]>;

// ---------------------------------------------------------------- open enums

export type CallStatus = OpenEnum<'queued' | 'scoring' | 'scored' | 'skipped' | 'failed'>;

export type SkipReason = OpenEnum<'too_short' | 'no_scorecard' | 'empty_scorecard' | 'all_criteria_na'>;

/** Known values: the `call_type` enum of `POST /v1/calls`. */
export type CallType = OpenEnum<NonNullable<GeneratedCreateCallRequest['call_type']>>;

/** Known values: the `participants[].role` enum of `POST /v1/calls`. */
export type ParticipantRole = OpenEnum<GeneratedParticipant['role']>;

export type RepSource = OpenEnum<'rep_email' | 'api_key_owner'>;

export type SpeakerSource = OpenEnum<'rep_speaker' | 'name_match' | 'inferred'>;

/** The document lists these as examples of `content_type`; the server answers 415 for others. */
export type RecordingContentType = OpenEnum<
  | 'audio/mpeg'
  | 'audio/mp3'
  | 'audio/wav'
  | 'audio/x-wav'
  | 'audio/mp4'
  | 'audio/x-m4a'
  | 'audio/aac'
  | 'audio/webm'
  | 'audio/ogg'
  | 'audio/flac'
  | 'video/mp4'
  | 'video/webm'
  | 'video/quicktime'
  | 'video/x-matroska'
  | 'video/x-m4v'
>;

export type ErrorCode = OpenEnum<
  | 'invalid_json'
  | 'invalid_api_key'
  | 'api_key_revoked'
  | 'api_key_owner_inactive'
  | 'insufficient_scope'
  | 'feature_not_enabled'
  | 'account_suspended'
  | 'payment_required'
  | 'not_found'
  | 'route_not_found'
  | 'recording_already_used'
  | 'external_id_conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'unknown_field'
  | 'transcript_unlabeled'
  | 'transcript_too_long'
  | 'rep_not_found'
  | 'rep_inactive'
  | 'rep_ambiguous'
  | 'rep_no_team'
  | 'rep_pending_activation'
  | 'rep_speaker_not_found'
  | 'rep_speaker_ambiguous'
  | 'rep_speaker_undetermined'
  | 'recording_not_found'
  | 'recording_too_large'
  | 'recording_type_not_supported'
  | 'scorecard_not_found'
  | 'scorecard_not_configured'
  | 'scorecard_rule_unavailable'
  | 'team_not_configured'
  | 'rate_limited'
  | 'internal_error'
  | 'inference_unavailable'
  | 'service_unavailable'
>;

// ---------------------------------------------------------------- requests

/**
 * `rep` of CreateCallRequest: `email` is the rep's login email in the service (max 320 characters); `name`
 * (1 to 200 characters) is used with it to find the rep's speaker label. No other properties are allowed.
 */
export type RepInput = NonNullable<GeneratedCreateCallRequest['rep']>;

/**
 * `participants[]` item of CreateCallRequest. `name` is 1 to 200 characters; `speaker_label` is the
 * participant's label in the transcript when it differs from the name. No other properties are allowed.
 */
export interface ParticipantInput extends Omit<GeneratedParticipant, 'role'> {
  role: ParticipantRole;
}

/**
 * One transcript segment: `speaker` (1 to 200 characters, the label exactly as the transcript names it),
 * `text` (1 to 20,000 characters), `start_ms` (offset from call start in milliseconds). Consecutive
 * segments by the same speaker are merged by the server.
 */
export type TranscriptSegment = NonNullable<GeneratedTranscript['segments']>[number];

/** `rep_speaker`: the speaker label that is the rep. Sending it skips slow speaker inference. */
type TranscriptCommon = Omit<GeneratedTranscript, 'segments' | 'text'>;

/** Exactly one of `segments` (preferred) or `text` must be non-null. */
export type TranscriptInput =
  | (TranscriptCommon & { segments: TranscriptSegment[]; text?: null })
  | (TranscriptCommon & { text: string; segments?: null });

/**
 * Body of `POST /v1/calls`. Fields outside the contract are rejected with 422 `unknown_field`.
 * `external_id`: 1 to 200 characters, the caller's stable id for the call. `provider`:
 * `^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`, lower-cased by the service. `occurred_at`: RFC 3339 with `Z` or a
 * colon offset (`+02:00`). `recording_id`: the id from `POST /v1/recordings`. `metadata`: free-form JSON
 * object, at most 16 KB serialized and 5 levels deep, never used for scoring.
 */
export interface CreateCallRequest extends Omit<
  GeneratedCreateCallRequest,
  'call_type' | 'participants' | 'transcript'
> {
  call_type?: CallType | null;
  /** At most 50 items. */
  participants?: ParticipantInput[] | null;
  transcript: TranscriptInput;
}

/** Body of `POST /v1/recordings`. `size_bytes`: 1 to 209,715,200 bytes. */
export interface CreateRecordingRequest extends Omit<GeneratedCreateRecordingRequest, 'content_type'> {
  content_type: RecordingContentType;
}

// ---------------------------------------------------------------- responses

export interface Attribution extends Open<Omit<GeneratedAttribution, 'rep_source' | 'speaker_source'>> {
  rep_source: RepSource;
  speaker_source: SpeakerSource;
}

/** Response of `POST /v1/calls` (202 created, 200 already existed). */
export interface CallIngestResult extends Open<
  Omit<GeneratedCallIngestResult, 'object' | 'status' | 'attribution'>
> {
  object: OpenEnum<GeneratedCallIngestResult['object']>;
  status: CallStatus;
  /** true when this request created the call (202); false when it already existed (200). */
  created: boolean;
  attribution: Attribution | null;
}

/** Response of `GET /v1/calls/{id}`. Never contains scores or transcript text. */
export interface Call extends Open<
  Omit<GeneratedCall, 'object' | 'status' | 'skip_reason' | 'rep' | 'call_type' | 'attribution'>
> {
  object: OpenEnum<GeneratedCall['object']>;
  status: CallStatus;
  /** Set only when status is `skipped`. */
  skip_reason: SkipReason | null;
  rep: Open<GeneratedCall['rep']>;
  call_type: CallType | null;
  /** null for calls that did not come through the API. */
  attribution: Attribution | null;
}

/** Response 201 of `POST /v1/recordings`. */
export interface RecordingUpload extends Open<Omit<GeneratedRecordingUpload, 'object' | 'upload_method'>> {
  object: OpenEnum<GeneratedRecordingUpload['object']>;
  /** Send the file with this method, with exactly `upload_headers`. */
  upload_method: OpenEnum<GeneratedRecordingUpload['upload_method']>;
}

export type ErrorFieldDetail = Open<GeneratedErrorField>;

/** The error envelope every v1 error response carries. */
export interface ErrorEnvelope {
  error: Open<Omit<GeneratedError, 'code' | 'fields'>> & {
    code: ErrorCode;
    fields?: ErrorFieldDetail[];
  };
}

/** The OpenAPI 3.1 document served at `GET /v1/openapi.json` (kept loose on purpose). */
export interface OpenApiDocument extends GeneratedOpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string; [k: string]: unknown };
  paths?: Record<string, unknown>;
}
