/**
 * Generated from the Callscore OpenAPI 3.1 document by openapi-typescript. Do not edit.
 * Run `npm run client:types` (scripts/generate-client-types.ts) after changing the server's schemas.
 */

export interface paths {
  '/v1/calls': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a call from a transcript and queue it for scoring
     * @description Idempotent on (provider, external_id). Returns ids, status and links; never scores.
     */
    post: operations['createCall'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/calls/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read the status and in-app link of a call */
    get: operations['getCall'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recordings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get a presigned upload location for a call recording
     * @description PUT the file to upload_url with exactly upload_headers and no Authorization header within 15 minutes, then send recording_id on POST /v1/calls.
     */
    post: operations['createRecording'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The OpenAPI 3.1 document of this API */
    get: operations['getOpenApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  createCall: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          external_id: string;
          provider: string;
          /** Format: date-time */
          occurred_at: string;
          /** @enum {string|null} */
          call_type?:
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
            | null;
          /** Format: uuid */
          scorecard_id?: string | null;
          rep?: {
            /** Format: email */
            email: string;
            name?: string | null;
          } | null;
          participants?:
            | {
                role: 'rep' | 'customer' | 'other';
                name: string;
                /** Format: email */
                email?: string | null;
                company?: string | null;
                speaker_label?: string | null;
              }[]
            | null;
          /** @description Exactly one of `segments` or `text` must be present (non-null). */
          transcript: {
            segments?:
              | {
                  speaker: string;
                  text: string;
                  start_ms?: number | null;
                }[]
              | null;
            text?: string | null;
            rep_speaker?: string | null;
          };
          recording_id?: string | null;
          /** @description Free-form; at most 16 KB serialized, 5 levels deep. */
          metadata?: {
            [key: string]: unknown;
          } | null;
        };
      };
    };
    responses: {
      /** @description The call already existed; nothing new was created. */
      200: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            object: 'call';
            external_id: string | null;
            provider: string | null;
            /**
             * @description Open enum. Known values: queued, scoring, scored, skipped, failed.
             * @example queued
             */
            status: string;
            created: boolean;
            attribution: {
              /** @description Open enum: rep_email, api_key_owner. */
              rep_source: string;
              /** @description Open enum: rep_speaker, name_match, inferred. */
              speaker_source: string;
            } | null;
            recording_attached: boolean;
            /** Format: uri */
            app_url: string;
          };
        };
      };
      /** @description The call was created and queued for scoring. */
      202: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description The call's absolute URL on the official API base. */
          Location?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            object: 'call';
            external_id: string | null;
            provider: string | null;
            /**
             * @description Open enum. Known values: queued, scoring, scored, skipped, failed.
             * @example queued
             */
            status: string;
            created: boolean;
            attribution: {
              /** @description Open enum: rep_email, api_key_owner. */
              rep_source: string;
              /** @description Open enum: rep_speaker, name_match, inferred. */
              speaker_source: string;
            } | null;
            recording_attached: boolean;
            /** Format: uri */
            app_url: string;
          };
        };
      };
      /** @description Error (400): invalid_json. */
      400: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example invalid_json
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (401): invalid_api_key, api_key_revoked, api_key_owner_inactive. */
      401: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example invalid_api_key
               * @example api_key_revoked
               * @example api_key_owner_inactive
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (403): insufficient_scope, feature_not_enabled, account_suspended, payment_required. */
      403: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example insufficient_scope
               * @example feature_not_enabled
               * @example account_suspended
               * @example payment_required
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (409): external_id_conflict, recording_already_used. */
      409: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example external_id_conflict
               * @example recording_already_used
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (413): payload_too_large. */
      413: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example payload_too_large
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (415): unsupported_media_type. */
      415: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example unsupported_media_type
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (422): validation_failed, unknown_field, transcript_unlabeled, transcript_too_long, rep_not_found, rep_inactive, rep_ambiguous, rep_no_team, rep_pending_activation, rep_speaker_not_found, rep_speaker_ambiguous, rep_speaker_undetermined, recording_not_found, scorecard_not_found, scorecard_not_configured, scorecard_rule_unavailable, team_not_configured. */
      422: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example validation_failed
               * @example unknown_field
               * @example transcript_unlabeled
               * @example transcript_too_long
               * @example rep_not_found
               * @example rep_inactive
               * @example rep_ambiguous
               * @example rep_no_team
               * @example rep_pending_activation
               * @example rep_speaker_not_found
               * @example rep_speaker_ambiguous
               * @example rep_speaker_undetermined
               * @example recording_not_found
               * @example scorecard_not_found
               * @example scorecard_not_configured
               * @example scorecard_rule_unavailable
               * @example team_not_configured
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (429): rate_limited. */
      429: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example rate_limited
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (500): internal_error. */
      500: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example internal_error
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (503): service_unavailable, inference_unavailable. */
      503: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example service_unavailable
               * @example inference_unavailable
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
    };
  };
  getCall: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The call id (UUID). */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The call. Never contains scores or transcript text. */
      200: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            object: 'call';
            external_id: string | null;
            provider: string | null;
            /**
             * @description Open enum. Known values: queued, scoring, scored, skipped, failed.
             * @example queued
             */
            status: string;
            /** @description Open enum: too_short, no_scorecard, empty_scorecard, all_criteria_na. */
            skip_reason: string | null;
            rep: {
              email: string | null;
            };
            call_type: string | null;
            has_recording: boolean;
            attribution: {
              /** @description Open enum: rep_email, api_key_owner. */
              rep_source: string;
              /** @description Open enum: rep_speaker, name_match, inferred. */
              speaker_source: string;
            } | null;
            /** Format: date-time */
            occurred_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: uri */
            app_url: string;
          };
        };
      };
      /** @description Error (401): invalid_api_key, api_key_revoked, api_key_owner_inactive. */
      401: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example invalid_api_key
               * @example api_key_revoked
               * @example api_key_owner_inactive
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (403): insufficient_scope, feature_not_enabled, account_suspended, payment_required. */
      403: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example insufficient_scope
               * @example feature_not_enabled
               * @example account_suspended
               * @example payment_required
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (404): not_found, route_not_found. */
      404: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example not_found
               * @example route_not_found
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (429): rate_limited. */
      429: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example rate_limited
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (500): internal_error. */
      500: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example internal_error
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (503): service_unavailable. */
      503: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example service_unavailable
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
    };
  };
  createRecording: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @example audio/mpeg
           * @example audio/mp3
           * @example audio/wav
           * @example audio/x-wav
           * @example audio/mp4
           * @example audio/x-m4a
           * @example audio/aac
           * @example audio/webm
           * @example audio/ogg
           * @example audio/flac
           * @example video/mp4
           * @example video/webm
           * @example video/quicktime
           * @example video/x-matroska
           * @example video/x-m4v
           */
          content_type: string;
          /** @description 1 to 209715200 bytes (200 MB). */
          size_bytes: number;
          filename?: string | null;
        };
      };
    };
    responses: {
      /** @description Upload location issued. */
      201: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            recording_id: string;
            /** @enum {string} */
            object: 'recording_upload';
            /** Format: uri */
            upload_url: string;
            /** @enum {string} */
            upload_method: 'PUT';
            upload_headers: {
              [key: string]: string;
            };
            /** Format: date-time */
            expires_at: string;
            max_size_bytes: number;
          };
        };
      };
      /** @description Error (400): invalid_json. */
      400: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example invalid_json
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (401): invalid_api_key, api_key_revoked, api_key_owner_inactive. */
      401: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example invalid_api_key
               * @example api_key_revoked
               * @example api_key_owner_inactive
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (403): insufficient_scope, feature_not_enabled, account_suspended, payment_required. */
      403: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example insufficient_scope
               * @example feature_not_enabled
               * @example account_suspended
               * @example payment_required
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (413): payload_too_large. */
      413: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example payload_too_large
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (415): unsupported_media_type. */
      415: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example unsupported_media_type
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (422): validation_failed, unknown_field, recording_too_large, recording_type_not_supported. */
      422: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example validation_failed
               * @example unknown_field
               * @example recording_too_large
               * @example recording_type_not_supported
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (429): rate_limited. */
      429: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example rate_limited
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (500): internal_error. */
      500: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example internal_error
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
      /** @description Error (503): service_unavailable. */
      503: {
        headers: {
          /** @description Unique per request; equals error.request_id on errors. */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the window. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the window resets. */
          'RateLimit-Reset'?: number;
          /** @description The policy, as `limit;w=seconds`. */
          'RateLimit-Policy'?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /**
               * @description Open enum of error codes.
               * @example service_unavailable
               */
              code: string;
              message: string;
              request_id: string;
              fields?: {
                field: string;
                message: string;
              }[];
            };
          };
        };
      };
    };
  };
  getOpenApi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OpenAPI 3.1 document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
    };
  };
}
