/**
 * POST /v1/recordings issues a signed upload location; PUT {upload_url} (outside /v1, no API key: the
 * signature is the credential) receives the bytes for the disk store.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { checkBodyStrings, throwSchemaErrors } from '../../ingest/check-request.js';
import type { RecordingStore } from '../../recordings/store.js';
import { UploadLengthError, verifyUploadRequest, type DiskRecordingStore } from '../../recordings/disk.js';
import { findRecordingById, insertRecording, markRecordingUploaded } from '../../store/recordings.repo.js';
import type { Store } from '../../store/db.js';
import {
  CreateRecordingRequestSchema,
  MAX_RECORDING_BYTES,
  RECORDING_CONTENT_TYPES,
  RecordingUploadSchema,
  authenticatedResponses,
  successResponse,
  type CreateRecordingRequest,
  type RecordingUpload,
} from './schemas.js';

export const UPLOAD_URL_LIFETIME_MS = 15 * 60_000;
const SUPPORTED = new Set<string>(RECORDING_CONTENT_TYPES);

/** The media type without parameters, lower-cased: `Audio/WebM; codecs=opus` → `audio/webm`. */
export function mediaTypeEssence(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

export async function recordingsRoutes(
  app: FastifyInstance,
  options: { store: Store; recordings: RecordingStore },
): Promise<void> {
  app.post(
    '/recordings',
    {
      config: { scope: 'recordings:write' },
      attachValidation: true,
      schema: {
        summary: 'Get a presigned upload location for a call recording',
        description:
          'PUT the file to upload_url with exactly upload_headers and no Authorization header within 15 minutes, then send recording_id on POST /v1/calls.',
        operationId: 'createRecording',
        tags: ['recordings'],
        body: CreateRecordingRequestSchema,
        response: authenticatedResponses(
          { 201: successResponse(RecordingUploadSchema, 'Upload location issued.') },
          'invalid_json',
          'payload_too_large',
          'unsupported_media_type',
          'validation_failed',
          'unknown_field',
          'recording_too_large',
          'recording_type_not_supported',
        ),
      },
    },
    async (request, reply) => {
      // NUL characters and forbidden keys rank with the schema's violations: after unknown fields (DESIGN 1b step 4).
      const ruleViolations = checkBodyStrings(request.body);
      if (request.validationError) {
        throwSchemaErrors(
          (request.validationError as unknown as { validation: never[] }).validation,
          ruleViolations,
        );
      }
      if (ruleViolations.length) throwSchemaErrors([], ruleViolations);
      const body = request.body as CreateRecordingRequest;
      if (!SUPPORTED.has(mediaTypeEssence(body.content_type))) {
        const message = `Supported types: ${RECORDING_CONTENT_TYPES.join(', ')}.`;
        throw new AppError('recording_type_not_supported', `This content type is not supported. ${message}`, {
          fields: [{ field: 'content_type', message }],
        });
      }
      if (body.size_bytes > MAX_RECORDING_BYTES) {
        const message = `must be at most ${MAX_RECORDING_BYTES} bytes (200 MB)`;
        throw new AppError('recording_too_large', `The recording is too large: ${message}.`, {
          fields: [{ field: 'size_bytes', message }],
        });
      }
      const caller = request.caller!;
      const id = `rec_${randomUUID().replace(/-/g, '')}`;
      const now = new Date();
      const expiresAt = new Date(now.getTime() + UPLOAD_URL_LIFETIME_MS);
      const target = await options.recordings.createUpload({
        key: id,
        contentType: body.content_type,
        sizeBytes: body.size_bytes,
        expiresAt,
      });
      await insertRecording(options.store.db, {
        id,
        account_id: caller.accountId,
        api_key_id: caller.keyId,
        content_type: body.content_type,
        size_bytes: body.size_bytes,
        filename: body.filename ?? null,
        storage_key: id,
        status: 'pending',
        call_id: null,
        expires_at: expiresAt.toISOString(),
        uploaded_at: null,
        created_at: now.toISOString(),
      });
      const result: RecordingUpload = {
        recording_id: id,
        object: 'recording_upload',
        upload_url: target.url,
        upload_method: 'PUT',
        upload_headers: target.headers,
        expires_at: target.expiresAt.toISOString(),
        max_size_bytes: MAX_RECORDING_BYTES,
      };
      return reply.code(201).send(result);
    },
  );
}

const UPLOAD_REFUSALS = {
  signature: () =>
    new AppError(
      'upload_signature_invalid',
      'The upload URL signature is not valid; request a new upload URL.',
    ),
  expired: () =>
    new AppError('upload_expired', 'The upload URL has expired; request a new one with POST /v1/recordings.'),
  content_type: () =>
    new AppError('unsupported_media_type', 'Send Content-Type exactly as given in upload_headers.'),
  length: () =>
    new AppError(
      'upload_size_mismatch',
      'The body length must equal the size_bytes declared for this recording.',
    ),
} as const;

/** The signed PUT target of the disk store, in its own scope so any media type is streamed through unparsed. */
export async function uploadRoutes(
  app: FastifyInstance,
  options: { store: Store; recordings: DiskRecordingStore; secret: Buffer },
): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.put('/uploads/recordings/:key', { schema: { hide: true } }, async (request) => {
    const { key } = request.params as { key: string };
    const query = request.query as Record<string, string | undefined>;
    const recording = await findRecordingById(options.store.db, key);
    if (!recording) throw UPLOAD_REFUSALS.signature();
    const contentLength = request.headers['content-length'];
    const verdict = verifyUploadRequest(options.secret, {
      key,
      query: { expires: query.expires, size: query.size, sig: query.sig },
      contentType: request.headers['content-type'],
      contentLength: contentLength === undefined ? undefined : Number(contentLength),
      now: Date.now(),
    });
    if (!verdict.ok) throw UPLOAD_REFUSALS[verdict.reason]();
    if (recording.call_id)
      throw new AppError('recording_already_used', 'This recording is already attached to a call.');
    try {
      await options.recordings.writeUpload(key, request.raw, verdict.sizeBytes);
    } catch (error) {
      throw error instanceof UploadLengthError ? UPLOAD_REFUSALS.length() : error;
    }
    await markRecordingUploaded(options.store.db, key, new Date().toISOString());
    return { recording_id: key, object: 'recording', status: 'uploaded', size_bytes: verdict.sizeBytes };
  });
}
