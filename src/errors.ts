/**
 * One error type for the whole service. Domain code throws an AppError with a contract code; only
 * the HTTP error handler turns it into a status, through the table below (one row per code).
 */

export interface FieldError {
  field: string;
  message: string;
}

/** Every error code of the contract (and DESIGN's additions) → HTTP status. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_api_key: 401,
  api_key_revoked: 401,
  api_key_owner_inactive: 401,
  insufficient_scope: 403,
  feature_not_enabled: 403,
  account_suspended: 403,
  payment_required: 403,
  not_found: 404,
  route_not_found: 404,
  recording_already_used: 409,
  external_id_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  unknown_field: 422,
  transcript_unlabeled: 422,
  transcript_too_long: 422,
  rep_not_found: 422,
  rep_inactive: 422,
  rep_ambiguous: 422,
  rep_no_team: 422,
  rep_pending_activation: 422,
  rep_speaker_not_found: 422,
  rep_speaker_ambiguous: 422,
  rep_speaker_undetermined: 422,
  recording_not_found: 422,
  recording_too_large: 422,
  recording_type_not_supported: 422,
  scorecard_not_found: 422,
  scorecard_not_configured: 422,
  scorecard_rule_unavailable: 422,
  team_not_configured: 422,
  rate_limited: 429,
  internal_error: 500,
  inference_unavailable: 503,
  service_unavailable: 503,
  // Signed upload endpoint (not part of the v1 JSON API, but rendered with the same envelope).
  upload_signature_invalid: 403,
  upload_expired: 403,
  upload_size_mismatch: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldError[] | undefined;
  /** Seconds, sent as the Retry-After header (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: FieldError[]; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = options.fields;
    this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A 422 validation_failed naming a single field. */
export function fieldError(field: string, message: string): AppError {
  return new AppError('validation_failed', `${field}: ${message}`, { fields: [{ field, message }] });
}
