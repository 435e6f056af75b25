/**
 * S3 recording store (the scale-out choice, RECORDINGS_STORE=s3): one object per key in an S3-compatible bucket.
 * Clients PUT straight to the bucket through a presigned URL whose SigV4 signature binds the method, bucket, key,
 * expiry, Content-Type and Content-Length, so the store itself refuses another type or size; the service learns of
 * an upload when a call names it (src/ingest/confirm-recording.ts: HEAD, exact size, then `uploaded`).
 * Credentials and, without S3_REGION, the region come from the AWS SDK's default chain.
 */
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { isRecordingKey } from './disk.js';
import { UploadLengthError, type RecordingStore, type UploadTarget } from './store.js';

export interface S3RecordingStore extends RecordingStore {
  readonly kind: 's3';
  readonly bucket: string;
}

export interface S3RecordingStoreOptions {
  bucket: string;
  /** For S3-compatible stores (MinIO, R2, s3rver…); unset: AWS's own endpoint for the region. */
  endpoint?: string | undefined;
  /** Unset: the SDK's chain (AWS_REGION, ~/.aws/config), or `us-east-1` when an endpoint is given. */
  region?: string | undefined;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`; default: on when an endpoint is given. */
  forcePathStyle?: boolean | undefined;
  /** Tests only; production uses the SDK's default credential chain. */
  credentials?: S3ClientConfig['credentials'];
}

function assertKey(key: string): void {
  if (!isRecordingKey(key))
    throw new RangeError(`Invalid recording key (only [A-Za-z0-9_-] allowed): ${JSON.stringify(key)}`);
}

/** S3 answers a missing key with 404 (NoSuchKey on GET, NotFound on HEAD, which has no body). */
function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound';
  }
  return false;
}

/** The port's contract for a missing object: an error whose `code` is ENOENT, like the disk store's. */
function notFound(key: string, cause: unknown): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`No recording stored under ${key}`, { cause });
  error.code = 'ENOENT';
  return error;
}

/** Reads `stream` whole when it holds exactly `expected` bytes (stops at the first byte too many). */
async function readExactly(stream: NodeJS.ReadableStream, expected: number): Promise<Buffer> {
  const readable = stream instanceof Readable ? stream : new Readable().wrap(stream);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of readable.iterator({ destroyOnReturn: false })) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    received += buffer.length;
    if (received > expected) throw new UploadLengthError(expected, received);
    chunks.push(buffer);
  }
  if (received !== expected) throw new UploadLengthError(expected, received);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
}

export function createS3RecordingStore(options: S3RecordingStoreOptions): S3RecordingStore {
  const { bucket } = options;
  if (!bucket) throw new RangeError('An S3 bucket name is required');
  const client = new S3Client({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.region || options.endpoint ? { region: options.region || 'us-east-1' } : {}),
    forcePathStyle: options.forcePathStyle ?? !!options.endpoint,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // No flexible checksums unless an operation requires one: with the default, presigned URLs would carry a
    // checksum of an empty body, and streamed PUTs use aws-chunked framing that S3-compatible stores may keep.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  return {
    kind: 's3',
    bucket,

    async createUpload({ key, contentType, sizeBytes, expiresAt }): Promise<UploadTarget> {
      assertKey(key);
      if (Number.isNaN(expiresAt.getTime())) throw new RangeError('expiresAt must be a valid date');
      if (!Number.isSafeInteger(sizeBytes) || sizeBytes < 0)
        throw new RangeError('sizeBytes must be an integer >= 0');
      // SigV4 dates have whole seconds: sign at a whole second, so the URL never outlives the moment asked for.
      const signingDate = new Date(Math.floor(Date.now() / 1000) * 1000);
      const expiresIn = Math.floor((expiresAt.getTime() - signingDate.getTime()) / 1000);
      if (expiresIn < 1) throw new RangeError('expiresAt must be at least a second away');
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        ContentType: contentType,
        ContentLength: sizeBytes,
      });
      const url = await getSignedUrl(client, command, {
        expiresIn,
        signingDate,
        // Signed, so the store refuses any other type or length (X-Amz-SignedHeaders=content-length;content-type;host).
        signableHeaders: new Set(['content-type', 'content-length']),
      });
      return {
        url,
        method: 'PUT',
        headers: { 'Content-Type': contentType, 'Content-Length': String(sizeBytes) },
        expiresAt: new Date(signingDate.getTime() + expiresIn * 1000),
      };
    },

    async writeUpload(key, stream, expectedBytes, contentType) {
      assertKey(key);
      if (!Number.isSafeInteger(expectedBytes) || expectedBytes < 0) {
        throw new RangeError('expectedBytes must be an integer >= 0');
      }
      // Read whole before sending (the web form that calls this already holds the file in memory): a short or long
      // body is refused here, and the PUT always carries exactly the length it declares.
      const body = await readExactly(stream, expectedBytes);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentLength: expectedBytes,
          ...(contentType ? { ContentType: contentType } : {}),
        }),
      );
    },

    async stat(key) {
      assertKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { sizeBytes: head.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async read(key, range) {
      assertKey(key);
      if (range) {
        const { start, end } = range;
        if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
          throw new RangeError(`Invalid range ${start}-${end}`);
        }
      }
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        if (!(object.Body instanceof Readable)) throw new Error('S3 GetObject returned no readable body');
        return object.Body;
      } catch (error) {
        if (isMissing(error)) throw notFound(key, error);
        throw error;
      }
    },

    async remove(key) {
      assertKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    close() {
      client.destroy();
    },
  };
}
