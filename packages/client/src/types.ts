/**
 * Request and response objects of the Callscore call-scoring API v1, written by hand from
 * the contract (call-scoring-api-v1.md). v1 changes are additive only: responses may carry
 * fields not listed here and enum values not listed here, so every enum is open
 * (`'known' | (string & {})` keeps editor completion while accepting new values).
 */

/** An open enum: the known values plus any other string the server may add within v1. */
export type OpenEnum<T extends string> = T | (string & {});

export type CallStatus = OpenEnum<'queued' | 'scoring' | 'scored' | 'skipped' | 'failed'>;

export type SkipReason = OpenEnum<'too_short' | 'no_scorecard' | 'empty_scorecard' | 'all_criteria_na'>;

export type CallType = OpenEnum<
  | 'discovery'
  | 'cold_call'
  | 'warm_call'
  | 'customer_success'
  | 'cross_selling'
  | 'evaluation'
  | 'negotiation'
  | 'gatekeeper'
  | 'inbound_call'
  | 'technical_discovery'
>;

export type ParticipantRole = OpenEnum<'rep' | 'customer' | 'other'>;

export type RepSource = OpenEnum<'rep_email' | 'api_key_owner'>;

export type SpeakerSource = OpenEnum<'rep_speaker' | 'name_match' | 'inferred'>;

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

/** `rep` of CreateCallRequest. No other properties are allowed by the server. */
export interface RepInput {
  /** The rep's login email in the service (max 320 characters). */
  email: string;
  /** 1 to 200 characters; used with the email to find the rep's speaker label. */
  name?: string | null;
}

/** `participants[]` item of CreateCallRequest. No other properties are allowed by the server. */
export interface ParticipantInput {
  role: ParticipantRole;
  /** 1 to 200 characters. */
  name: string;
  email?: string | null;
  company?: string | null;
  /** The participant's label in the transcript when it differs from the name. */
  speaker_label?: string | null;
}

/** One transcript segment. Consecutive segments by the same speaker are merged by the server. */
export interface TranscriptSegment {
  /** 1 to 200 characters, the label exactly as the transcript names it. */
  speaker: string;
  /** 1 to 20,000 characters. */
  text: string;
  /** Offset from call start in milliseconds. */
  start_ms?: number | null;
}

interface TranscriptCommon {
  /** The speaker label that is the rep. Sending it skips slow speaker inference. */
  rep_speaker?: string | null;
}

/** Exactly one of `segments` (preferred) or `text` must be non-null. */
export type TranscriptInput =
  | (TranscriptCommon & { segments: TranscriptSegment[]; text?: null })
  | (TranscriptCommon & { text: string; segments?: null });

/** Body of `POST /v1/calls`. Fields outside the contract are rejected with 422 `unknown_field`. */
export interface CreateCallRequest {
  /** 1 to 200 characters: the caller's stable id for the call. */
  external_id: string;
  /** `^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`; lower-cased by the service. */
  provider: string;
  /** RFC 3339 with `Z` or a colon offset (`+02:00`). */
  occurred_at: string;
  call_type?: CallType | null;
  scorecard_id?: string | null;
  rep?: RepInput | null;
  /** At most 50 items. */
  participants?: ParticipantInput[] | null;
  transcript: TranscriptInput;
  /** The id from `POST /v1/recordings`. */
  recording_id?: string | null;
  /** Free-form JSON object, at most 16 KB serialized and 5 levels deep. Never used for scoring. */
  metadata?: Record<string, unknown> | null;
}

/** Body of `POST /v1/recordings`. */
export interface CreateRecordingRequest {
  content_type: RecordingContentType;
  /** 1 to 209,715,200 bytes. */
  size_bytes: number;
  filename?: string | null;
}

// ---------------------------------------------------------------- responses

export interface Attribution {
  rep_source: RepSource;
  speaker_source: SpeakerSource;
  [unknownField: string]: unknown;
}

/** Response of `POST /v1/calls` (202 created, 200 already existed). */
export interface CallIngestResult {
  id: string;
  object: OpenEnum<'call'>;
  external_id: string | null;
  provider: string | null;
  status: CallStatus;
  /** true when this request created the call (202); false when it already existed (200). */
  created: boolean;
  attribution: Attribution | null;
  recording_attached: boolean;
  app_url: string;
  [unknownField: string]: unknown;
}

/** Response of `GET /v1/calls/{id}`. Never contains scores or transcript text. */
export interface Call {
  id: string;
  object: OpenEnum<'call'>;
  external_id: string | null;
  provider: string | null;
  status: CallStatus;
  /** Set only when status is `skipped`. */
  skip_reason: SkipReason | null;
  rep: { email: string | null; [unknownField: string]: unknown };
  call_type: CallType | null;
  has_recording: boolean;
  /** null for calls that did not come through the API. */
  attribution: Attribution | null;
  occurred_at: string | null;
  created_at: string;
  app_url: string;
  [unknownField: string]: unknown;
}

/** Response 201 of `POST /v1/recordings`. */
export interface RecordingUpload {
  recording_id: string;
  object: OpenEnum<'recording_upload'>;
  upload_url: string;
  upload_method: OpenEnum<'PUT'>;
  /** Headers to send on the PUT, exactly as given. */
  upload_headers: Record<string, string>;
  expires_at: string;
  max_size_bytes: number;
  [unknownField: string]: unknown;
}

export interface ErrorFieldDetail {
  field: string;
  message: string;
  [unknownField: string]: unknown;
}

/** The error envelope every v1 error response carries. */
export interface ErrorEnvelope {
  error: {
    code: ErrorCode;
    message: string;
    request_id: string;
    fields?: ErrorFieldDetail[];
    [unknownField: string]: unknown;
  };
}

/** The OpenAPI 3.1 document served at `GET /v1/openapi.json` (kept loose on purpose). */
export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string; [k: string]: unknown };
  paths?: Record<string, unknown>;
  [unknownField: string]: unknown;
}
