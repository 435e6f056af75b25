/**
 * The v1 contract as TypeBox schemas: one definition validates requests, serialises responses, types the
 * handlers and becomes the OpenAPI 3.1 document. Nullable fields use `type: [T, 'null']` rather than anyOf,
 * so a validation error names one problem instead of one per branch.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ERROR_STATUS, type ErrorCode } from '../../errors.js';
import { CALL_TYPES } from '../../ingest/classify-call.js';

function nullable<T extends TSchema>(schema: T) {
  const { enum: values, ...rest } = schema as T & { enum?: unknown[] };
  return Type.Unsafe<Static<T> | null>({
    ...rest,
    type: [schema.type as string, 'null'],
    ...(values ? { enum: [...values, null] } : {}),
  });
}

export const RECORDING_CONTENT_TYPES = [
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'audio/x-wav',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/webm',
  'audio/ogg',
  'audio/flac',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'video/x-matroska',
  'video/x-m4v',
] as const;

export const MAX_RECORDING_BYTES = 209_715_200;

const UUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

/** RFC 3339 with `Z` or a colon offset; ajv-formats' date-time alone accepts `+0100`, which the contract refuses. */
export const RFC3339_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';

const Email = Type.String({ format: 'email', maxLength: 320 });
const Text200 = Type.String({ minLength: 1, maxLength: 200 });

export const RepSchema = Type.Object(
  { email: Email, name: Type.Optional(nullable(Text200)) },
  { additionalProperties: false },
);

export const ParticipantSchema = Type.Object(
  {
    role: Type.Union([Type.Literal('rep'), Type.Literal('customer'), Type.Literal('other')]),
    name: Text200,
    email: Type.Optional(nullable(Email)),
    company: Type.Optional(nullable(Text200)),
    speaker_label: Type.Optional(nullable(Text200)),
  },
  { additionalProperties: false },
);

export const SegmentSchema = Type.Object(
  {
    speaker: Text200,
    text: Type.String({ minLength: 1, maxLength: 20_000 }),
    start_ms: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 9_007_199_254_740_991 }))),
  },
  { additionalProperties: false },
);

export const TranscriptSchema = Type.Object(
  {
    segments: Type.Optional(nullable(Type.Array(SegmentSchema, { minItems: 1, maxItems: 10_000 }))),
    text: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 600_000 }))),
    rep_speaker: Type.Optional(nullable(Text200)),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of `segments` or `text` must be present (non-null).',
  },
);

export const CreateCallRequestSchema = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 200 }),
    provider: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$' }),
    occurred_at: Type.String({ format: 'date-time', pattern: RFC3339_PATTERN }),
    call_type: Type.Optional(
      nullable(Type.Unsafe<(typeof CALL_TYPES)[number]>({ type: 'string', enum: [...CALL_TYPES] })),
    ),
    // ajv's uuid format also takes a `urn:uuid:` prefix; the contract's string(uuid) is the bare form.
    scorecard_id: Type.Optional(nullable(Type.String({ format: 'uuid', pattern: UUID_PATTERN }))),
    rep: Type.Optional(nullable(RepSchema)),
    participants: Type.Optional(nullable(Type.Array(ParticipantSchema, { maxItems: 50 }))),
    transcript: TranscriptSchema,
    recording_id: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    metadata: Type.Optional(
      nullable(
        Type.Object(
          {},
          { additionalProperties: true, description: 'Free-form; at most 16 KB serialized, 5 levels deep.' },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type CreateCallRequest = Static<typeof CreateCallRequestSchema>;

const CallStatus = Type.String({
  description: 'Open enum. Known values: queued, scoring, scored, skipped, failed.',
  examples: ['queued'],
});

export const AttributionSchema = Type.Object({
  rep_source: Type.String({ description: 'Open enum: rep_email, api_key_owner.' }),
  speaker_source: Type.String({ description: 'Open enum: rep_speaker, name_match, inferred.' }),
});

export const CallIngestResultSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  object: Type.Literal('call'),
  external_id: nullable(Type.String()),
  provider: nullable(Type.String()),
  status: CallStatus,
  created: Type.Boolean(),
  attribution: nullable(AttributionSchema),
  recording_attached: Type.Boolean(),
  app_url: Type.String({ format: 'uri' }),
});
export type CallIngestResult = Static<typeof CallIngestResultSchema>;

export const CallSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  object: Type.Literal('call'),
  external_id: nullable(Type.String()),
  provider: nullable(Type.String()),
  status: CallStatus,
  skip_reason: nullable(
    Type.String({ description: 'Open enum: too_short, no_scorecard, empty_scorecard, all_criteria_na.' }),
  ),
  rep: Type.Object({ email: nullable(Type.String()) }),
  call_type: nullable(Type.String()),
  has_recording: Type.Boolean(),
  attribution: nullable(AttributionSchema),
  occurred_at: nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
  app_url: Type.String({ format: 'uri' }),
});
export type CallView = Static<typeof CallSchema>;

/** `format: uuid` documents the contract; a malformed id is still answered by the handler (404 not_found). */
export const CallIdParamsSchema = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The call id (UUID).' }),
});

export const CreateRecordingRequestSchema = Type.Object(
  {
    content_type: Type.String({ minLength: 1, maxLength: 255, examples: [...RECORDING_CONTENT_TYPES] }),
    // The maximum is checked by the handler: over it the contract answers recording_too_large, not a schema error.
    size_bytes: Type.Integer({ minimum: 1, description: `1 to ${MAX_RECORDING_BYTES} bytes (200 MB).` }),
    filename: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  },
  { additionalProperties: false },
);
export type CreateRecordingRequest = Static<typeof CreateRecordingRequestSchema>;

export const RecordingUploadSchema = Type.Object({
  recording_id: Type.String(),
  object: Type.Literal('recording_upload'),
  upload_url: Type.String({ format: 'uri' }),
  upload_method: Type.Literal('PUT'),
  upload_headers: Type.Record(Type.String(), Type.String()),
  expires_at: Type.String({ format: 'date-time' }),
  max_size_bytes: Type.Integer(),
});
export type RecordingUpload = Static<typeof RecordingUploadSchema>;

export const ErrorSchema = Type.Object({
  error: Type.Object({
    code: Type.String({ description: 'Open enum of error codes.' }),
    message: Type.String(),
    request_id: Type.String(),
    fields: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  }),
});

/**
 * Response headers of the contract, for the OpenAPI document (@fastify/swagger reads `headers` beside a
 * response schema; the serializer ignores it). Every response carries X-Request-Id; 429 and 503 carry
 * Retry-After; a 202 from POST /v1/calls carries Location.
 */
const REQUEST_ID_HEADER = {
  'X-Request-Id': { type: 'string', description: 'Unique per request; equals error.request_id on errors.' },
} as const;
const RETRY_AFTER_HEADER = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' },
} as const;
export const LOCATION_HEADER = {
  Location: {
    type: 'string',
    format: 'uri',
    description: "The call's absolute URL on the official API base.",
  },
} as const;

/** A success response: its schema, description and headers (X-Request-Id plus `headers`). */
export function successResponse<T extends TSchema>(schema: T, description: string, headers: object = {}): T {
  return { ...schema, description, headers: { ...REQUEST_ID_HEADER, ...headers } };
}

/** Sent on every response of an authenticated operation (src/rate-limit/limiter.ts). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { type: 'integer', description: 'Requests allowed per window.' },
  'RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window.' },
  'RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets.' },
  'RateLimit-Policy': { type: 'string', description: 'The policy, as `limit;w=seconds`.' },
} as const;

/** What any authenticated operation can answer: authentication, scopes, limits, and a server or database fault. */
const COMMON_ERROR_CODES: readonly ErrorCode[] = [
  'invalid_api_key',
  'api_key_revoked',
  'api_key_owner_inactive',
  'insufficient_scope',
  'feature_not_enabled',
  'account_suspended',
  'payment_required',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];

/**
 * An authenticated operation's responses for the OpenAPI document: its success responses with the rate-limit
 * headers added, and one error response per status with the codes it can carry (the set stays open: clients
 * tolerate unknown codes, so the codes are listed as examples and in the description, not as an enum).
 */
export function authenticatedResponses(
  successes: Record<number, object>,
  ...codes: ErrorCode[]
): Record<number, object> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...COMMON_ERROR_CODES, ...codes]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, object> = {};
  for (const [status, response] of Object.entries(successes) as unknown as [number, { headers?: object }][])
    responses[status] = { ...response, headers: { ...response.headers, ...RATE_LIMIT_HEADERS } };
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const error = ErrorSchema.properties.error;
    responses[status] = {
      ...ErrorSchema,
      properties: {
        error: {
          ...error,
          properties: { ...error.properties, code: { ...error.properties.code, examples: list } },
        },
      },
      description: `Error (${status}): ${list.join(', ')}.`,
      headers: {
        ...REQUEST_ID_HEADER,
        ...RATE_LIMIT_HEADERS,
        ...(status === 429 || status === 503 ? RETRY_AFTER_HEADER : {}),
      },
    };
  }
  return responses;
}
