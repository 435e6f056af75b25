/**
 * The S3 recording store against a real S3-compatible server (s3rver) on loopback: presigned PUT with fetch,
 * stat, ranged reads, removal, server-side writes, expiry, and what the signature binds.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3RecordingStore, type S3RecordingStore } from '../../src/recordings/s3.js';
import { UploadLengthError } from '../../src/recordings/store.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { createRecordingStore } from '../../src/container.js';
import { startS3rver, S3RVER_CREDENTIALS, type TestS3 } from '../helpers/s3rver.js';
import { verifyPresignedPut } from '../helpers/sigv4.js';

let s3: TestS3;
let store: S3RecordingStore;
let n = 0;
const newKey = () => `rec_${process.pid}_${Date.now()}_${n++}`;
const in15Minutes = () => new Date(Date.now() + 15 * 60_000);

beforeAll(async () => {
  s3 = await startS3rver();
  // Credentials from the SDK's default chain, as in production (the helper put them in the environment).
  store = createS3RecordingStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: s3.region });
});

afterAll(async () => {
  store?.close?.();
  await s3?.close();
});

async function put(url: string, headers: Record<string, string>, body: string | Buffer) {
  const res = await fetch(url, { method: 'PUT', headers, body: body as BodyInit });
  return { status: res.status, text: await res.text() };
}

describe('S3 recording store on s3rver', () => {
  it('presigned PUT with exactly upload_headers → stat → ranged reads → remove', async () => {
    const key = newKey();
    const bytes = 'hello audio, in bytes';
    const expiresAt = in15Minutes();
    const target = await store.createUpload({
      key,
      contentType: 'audio/mpeg',
      sizeBytes: bytes.length,
      expiresAt,
    });
    expect(target.method).toBe('PUT');
    expect(target.headers).toEqual({ 'Content-Type': 'audio/mpeg', 'Content-Length': String(bytes.length) });
    expect(target.url.startsWith(`${s3.endpoint}/${s3.bucket}/${key}?`)).toBe(true);
    const url = new URL(target.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.has('x-amz-checksum-crc32')).toBe(false);
    expect(target.expiresAt.getTime()).toBeLessThanOrEqual(expiresAt.getTime());
    expect(target.expiresAt.getTime()).toBeGreaterThan(expiresAt.getTime() - 2000);
    expect(target.expiresAt.getTime() % 1000).toBe(0);

    expect(await store.stat(key)).toBeNull();
    const done = await put(target.url, target.headers, bytes);
    expect(done.status).toBe(200);
    expect(await store.stat(key)).toEqual({ sizeBytes: bytes.length });
    // Stored as sent: no aws-chunked framing, no trailer.
    expect(await text(await store.read(key))).toBe(bytes);
    expect(await text(await store.read(key, { start: 0, end: 4 }))).toBe('hello');
    expect(await text(await store.read(key, { start: 6, end: 10 }))).toBe('audio');
    expect(await text(await store.read(key, { start: bytes.length - 5, end: bytes.length - 1 }))).toBe(
      'bytes',
    );

    await store.remove(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.read(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.remove(key); // idempotent
  });

  it('stat is null and read rejects with ENOENT for a key never uploaded', async () => {
    const key = newKey();
    expect(await store.stat(key)).toBeNull();
    await expect(store.read(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.read(key, { start: 0, end: 1 })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses keys that are not recording ids and invalid ranges', async () => {
    await expect(store.stat('../etc/passwd')).rejects.toThrow(RangeError);
    await expect(
      store.createUpload({ key: 'a/b', contentType: 'audio/mpeg', sizeBytes: 1, expiresAt: in15Minutes() }),
    ).rejects.toThrow(RangeError);
    await expect(store.read(newKey(), { start: 5, end: 2 })).rejects.toThrow(RangeError);
  });

  it('writeUpload (the web form) stores exactly the declared bytes with the content type, and refuses other lengths', async () => {
    const key = newKey();
    const bytes = Buffer.from('web form recording');
    await store.writeUpload(
      key,
      Readable.from([bytes.subarray(0, 4), bytes.subarray(4)]),
      bytes.length,
      'audio/ogg',
    );
    expect(await store.stat(key)).toEqual({ sizeBytes: bytes.length });
    expect(await text(await store.read(key))).toBe(bytes.toString());
    const stored = fs.readdirSync(path.join(s3.directory, s3.bucket), { recursive: true }).map(String);
    const metadata = stored.find((file) => file.startsWith(key) && file.endsWith('._S3rver_metadata.json'));
    expect(JSON.parse(fs.readFileSync(path.join(s3.directory, s3.bucket, metadata!), 'utf8'))).toMatchObject({
      'content-type': 'audio/ogg',
    });

    const short = newKey();
    await expect(store.writeUpload(short, Readable.from([bytes]), bytes.length + 1)).rejects.toBeInstanceOf(
      UploadLengthError,
    );
    await expect(store.writeUpload(short, Readable.from([bytes]), bytes.length - 1)).rejects.toBeInstanceOf(
      UploadLengthError,
    );
    expect(await store.stat(short)).toBeNull();
  });

  it('an expired URL is refused by the store', async () => {
    const key = newKey();
    const target = await store.createUpload({
      key,
      contentType: 'audio/wav',
      sizeBytes: 3,
      expiresAt: new Date(Date.now() + 2000),
    });
    await new Promise((resolve) => setTimeout(resolve, target.expiresAt.getTime() - Date.now() + 1100));
    const late = await put(target.url, target.headers, 'abc');
    expect(late.status).toBe(403);
    expect(late.text).toContain('Request has expired');
    expect(await store.stat(key)).toBeNull();
  });

  it('the signature binds Content-Type, Content-Length, key and expiry (SigV4 checked as S3 does; s3rver does not)', async () => {
    const key = newKey();
    const target = await store.createUpload({
      key,
      contentType: 'audio/mpeg',
      sizeBytes: 11,
      expiresAt: in15Minutes(),
    });
    const verify = (url: string, headers: Record<string, string>) =>
      verifyPresignedPut(url, { method: 'PUT', headers }, S3RVER_CREDENTIALS.secretAccessKey);

    expect(verify(target.url, target.headers)).toBe('ok');
    expect(verify(target.url, { ...target.headers, 'Content-Type': 'audio/wav' })).toBe('signature_mismatch');
    expect(verify(target.url, { ...target.headers, 'Content-Length': '13' })).toBe('signature_mismatch');
    expect(verify(target.url, { 'Content-Type': 'audio/mpeg' })).toBe('signature_mismatch');
    const tampered = target.url.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${'0'.repeat(64)}`);
    expect(verify(tampered, target.headers)).toBe('signature_mismatch');
    expect(verify(target.url.replace(key, newKey()), target.headers)).toBe('signature_mismatch');
    expect(verify(target.url.replace('X-Amz-Expires=900', 'X-Amz-Expires=3600'), target.headers)).toBe(
      'signature_mismatch',
    );
    expect(verify(target.url, { ...target.headers, 'x-amz-acl': 'public-read' })).toBe('unsigned_header');

    // s3rver itself: it does not implement SigV4 verification, so it accepts both. Said here rather than skipped;
    // the service does not depend on it: step 12 of POST /v1/calls checks the stored size (HEAD) before attaching.
    const wrongType = await put(
      target.url,
      { ...target.headers, 'Content-Type': 'audio/wav' },
      'hello audio',
    );
    const badSignature = await put(tampered, target.headers, 'hello audio');
    const accepted = [wrongType.status, badSignature.status].filter((status) => status === 200).length;
    if (accepted > 0) {
      console.info(
        `s3rver accepted ${accepted} of 2 PUTs that S3 would refuse (wrong Content-Type, changed signature): ` +
          's3rver does not verify SigV4 signatures. The binding is asserted above with an independent SigV4 check, ' +
          'and the API relies on the size check (HEAD) when a call names the recording.',
      );
    } else {
      expect([wrongType.status, badSignature.status]).toEqual([403, 403]);
    }
    await store.remove(key);
  });
});

describe('RECORDINGS_STORE=s3 configuration', () => {
  it('fails without S3_BUCKET, saying what to set', () => {
    expect(() => loadConfig({ RECORDINGS_STORE: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ RECORDINGS_STORE: 's3', S3_ENDPOINT: 'http://127.0.0.1:9' })).toThrow(
      /RECORDINGS_STORE=s3 needs S3_BUCKET.*set S3_BUCKET/,
    );
    expect(() => loadConfig({ RECORDINGS_STORE: 'minio' })).toThrow(
      /RECORDINGS_STORE must be one of disk, s3/,
    );
    expect(() =>
      loadConfig({ RECORDINGS_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'maybe' }),
    ).toThrow(/S3_FORCE_PATH_STYLE/);
  });

  it('`callscore serve` stops at start with that message and exit code 1', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts', 'serve'],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            NODE_NO_WARNINGS: '1',
            DATA_DIR: s3.directory,
            PORT: '0',
            RECORDINGS_STORE: 's3',
          },
          timeout: 30_000,
        },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('RECORDINGS_STORE=s3 needs S3_BUCKET');
  });

  it('picks the S3 store from the environment, the disk store by default', () => {
    const config = loadConfig({
      RECORDINGS_STORE: 's3',
      S3_BUCKET: 'recordings',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_REGION: 'eu-west-1',
    });
    expect(config.s3).toEqual({
      bucket: 'recordings',
      endpoint: 'http://127.0.0.1:9',
      region: 'eu-west-1',
      forcePathStyle: undefined,
    });
    const s3Store = createRecordingStore(config, Buffer.alloc(0));
    expect([s3Store.kind, (s3Store as S3RecordingStore).bucket]).toEqual(['s3', 'recordings']);
    s3Store.close?.();
    const diskStore = createRecordingStore(loadConfig({ DATA_DIR: s3.directory }), Buffer.from('k'));
    expect(diskStore.kind).toBe('disk');
  });
});
