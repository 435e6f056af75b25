import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDiskRecordingStore,
  UploadLengthError,
  verifyUploadRequest,
  type DiskRecordingStore,
} from './disk.js';

const secret = randomBytes(32);
const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
let root: string;
let dir: string;
let store: DiskRecordingStore;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-disk-'));
  dir = path.join(root, 'recordings');
  store = createDiskRecordingStore({
    dir,
    uploadBaseUrl: 'https://api.example.test/uploads/recordings/',
    secret,
  });
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** A source that records how many chunks were pulled from it. */
function countingSource(chunks: Buffer[]): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const stream = Readable.from(
    (function* () {
      for (const chunk of chunks) {
        pulled++;
        yield chunk;
      }
    })(),
  );
  return { stream, pulled: () => pulled };
}

const leftovers = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

describe('disk store: signed upload URLs', () => {
  async function issue(overrides: Partial<{ key: string; contentType: string; sizeBytes: number }> = {}) {
    const input = { key: 'rec_abc123', contentType: 'audio/mpeg', sizeBytes: 1234, ...overrides };
    const target = await store.createUpload({ ...input, expiresAt: new Date(NOW + 15 * 60_000 + 500) });
    const url = new URL(target.url);
    const query = Object.fromEntries(url.searchParams) as { expires: string; size: string; sig: string };
    const request = {
      key: decodeURIComponent(url.pathname.split('/').pop()!),
      query,
      contentType: target.headers['Content-Type'],
      contentLength: input.sizeBytes as number | undefined,
      now: NOW,
    };
    return { target, url, query, request };
  }

  it('issues a PUT URL with expiry, size and signature, and the Content-Type header to send', async () => {
    const { target, url, query } = await issue();
    expect(target.method).toBe('PUT');
    expect(`${url.origin}${url.pathname}`).toBe('https://api.example.test/uploads/recordings/rec_abc123');
    expect([...url.searchParams.keys()]).toEqual(['expires', 'size', 'sig']);
    expect(query.size).toBe('1234');
    // Whole seconds, rounded down, and expiresAt says the same moment as the URL.
    expect(Number(query.expires)).toBe((NOW + 15 * 60_000) / 1000);
    expect(target.expiresAt.getTime()).toBe(Number(query.expires) * 1000);
    expect(target.headers).toEqual({ 'Content-Type': 'audio/mpeg' });
  });

  it('accepts the request the URL was issued for', async () => {
    const { request } = await issue();
    expect(verifyUploadRequest(secret, request)).toEqual({
      ok: true,
      sizeBytes: 1234,
      contentType: 'audio/mpeg',
    });
    // A chunked body has no Content-Length: accepted here, writeUpload counts the bytes.
    expect(verifyUploadRequest(secret, { ...request, contentLength: undefined }).ok).toBe(true);
    // The media type is compared without regard to case or surrounding whitespace.
    expect(verifyUploadRequest(secret, { ...request, contentType: ' Audio/MPEG ' }).ok).toBe(true);
  });

  it.each([
    [
      'a changed signature',
      (r: Req) => ({
        ...r,
        query: { ...r.query, sig: r.query.sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      }),
    ],
    ['a missing signature', (r: Req) => ({ ...r, query: { ...r.query, sig: undefined } })],
    ['a changed size', (r: Req) => ({ ...r, query: { ...r.query, size: '1235' }, contentLength: 1235 })],
    ['a size written differently', (r: Req) => ({ ...r, query: { ...r.query, size: '01234' } })],
    [
      'a changed expiry',
      (r: Req) => ({ ...r, query: { ...r.query, expires: String(Number(r.query.expires) + 3600) } }),
    ],
    ['a missing expiry', (r: Req) => ({ ...r, query: { ...r.query, expires: undefined } })],
    ['another key', (r: Req) => ({ ...r, key: 'rec_abc124' })],
    ['a traversal key', (r: Req) => ({ ...r, key: '../rec_abc123' })],
    ['another secret', (r: Req) => r, 'another secret'],
  ])('refuses %s as a bad signature', async (_name, alter, otherSecret?: string) => {
    const { request } = await issue();
    expect(verifyUploadRequest(otherSecret ?? secret, alter(request))).toEqual({
      ok: false,
      reason: 'signature',
    });
  });

  it('refuses at and after the expiry, not before', async () => {
    const { request, query } = await issue();
    const expiresMs = Number(query.expires) * 1000;
    expect(verifyUploadRequest(secret, { ...request, now: expiresMs - 1 }).ok).toBe(true);
    expect(verifyUploadRequest(secret, { ...request, now: expiresMs })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyUploadRequest(secret, { ...request, now: expiresMs + 86_400_000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses another or a missing Content-Type', async () => {
    const { request } = await issue({ contentType: 'audio/webm; codecs=opus' });
    expect(verifyUploadRequest(secret, { ...request, contentType: 'AUDIO/webm; codecs=opus' }).ok).toBe(true);
    for (const contentType of [
      'audio/webm',
      'audio/ogg; codecs=opus',
      'application/octet-stream',
      undefined,
      '',
    ]) {
      expect(verifyUploadRequest(secret, { ...request, contentType }), String(contentType)).toEqual({
        ok: false,
        reason: 'content_type',
      });
    }
  });

  it('refuses a Content-Length other than the signed size', async () => {
    const { request } = await issue();
    for (const contentLength of [1233, 1235, 0, Number.NaN]) {
      expect(verifyUploadRequest(secret, { ...request, contentLength })).toEqual({
        ok: false,
        reason: 'length',
      });
    }
  });

  it('refuses keys that could leave the folder', async () => {
    for (const key of ['../evil', 'a/b', 'a\\b', '.hidden', 'a.b', '', 'é']) {
      await expect(
        store.createUpload({ key, contentType: 'audio/mpeg', sizeBytes: 1, expiresAt: new Date(NOW) }),
      ).rejects.toThrow(RangeError);
    }
  });
});

type Req = Parameters<typeof verifyUploadRequest>[1] & {
  query: { expires: string; size: string; sig: string };
};

describe('disk store: files', () => {
  it('stores an upload of exactly the signed length, then stats, reads and removes it', async () => {
    await store.writeUpload('rec_exact', Readable.from([Buffer.from('hello '), Buffer.from('world')]), 11);
    expect(await store.stat('rec_exact')).toEqual({ sizeBytes: 11 });
    expect(await text(await store.read('rec_exact'))).toBe('hello world');
    expect(leftovers().filter((f) => f.startsWith('.'))).toEqual([]);
    await store.remove('rec_exact');
    expect(await store.stat('rec_exact')).toBeNull();
    await store.remove('rec_exact'); // absent: no error
  });

  it('stores a large upload byte for byte across write batches', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const chunks: Buffer[] = [];
    for (let i = 0; i < data.length; i += 65_536) chunks.push(data.subarray(i, i + 65_536));
    await store.writeUpload('rec_large', Readable.from(chunks), data.length);
    const stored = fs.readFileSync(path.join(dir, 'rec_large'));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(
      createHash('sha256').update(data).digest('hex'),
    );
  });

  it('refuses a body that ends short, leaving no file behind', async () => {
    const error = await store
      .writeUpload('rec_short', Readable.from([Buffer.from('abc')]), 4)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadLengthError);
    expect(error).toMatchObject({ expectedBytes: 4, receivedBytes: 3 });
    expect(await store.stat('rec_short')).toBeNull();
    expect(leftovers().filter((f) => f.includes('rec_short'))).toEqual([]);
  });

  it('refuses a body that runs over, stops reading it at once, and leaves no file behind', async () => {
    const source = countingSource(Array.from({ length: 10_000 }, () => Buffer.alloc(10, 1)));
    const error = await store.writeUpload('rec_long', source.stream, 25).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadLengthError);
    expect((error as UploadLengthError).receivedBytes).toBe(30);
    expect(source.pulled()).toBeLessThan(100); // only the stream's read-ahead, not the 10,000 chunks
    expect(source.stream.destroyed).toBe(false); // the caller owns the source
    source.stream.destroy();
    expect(await store.stat('rec_long')).toBeNull();
    expect(leftovers().filter((f) => f.includes('rec_long'))).toEqual([]);
  });

  it('keeps the previous file when a replacement fails, and leaves no temporary file on a stream error', async () => {
    await store.writeUpload('rec_keep', Readable.from([Buffer.from('original')]), 8);
    const failing = new Readable({
      read() {
        this.push(Buffer.from('par'));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(store.writeUpload('rec_keep', failing, 8)).rejects.toThrow('connection reset');
    expect(await text(await store.read('rec_keep'))).toBe('original');
    expect(leftovers().filter((f) => f.includes('rec_keep'))).toEqual(['rec_keep']);
  });

  it('reads inclusive byte ranges', async () => {
    await store.writeUpload('rec_range', Readable.from([Buffer.from('0123456789')]), 10);
    expect(await text(await store.read('rec_range', { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await store.read('rec_range', { start: 9, end: 9 }))).toBe('9');
    expect(await text(await store.read('rec_range', { start: 0, end: 9 }))).toBe('0123456789');
    expect(await text(await store.read('rec_range', { start: 7, end: 100 }))).toBe('789');
    await expect(store.read('rec_range', { start: 5, end: 4 })).rejects.toThrow(RangeError);
    await expect(store.read('rec_range', { start: -1, end: 4 })).rejects.toThrow(RangeError);
  });

  it('rejects a read of a key with nothing stored with ENOENT', async () => {
    await expect(store.read('rec_missing')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses path traversal in every operation and writes nothing outside the folder', async () => {
    const outside = path.join(root, 'escaped');
    for (const key of ['../escaped', '..', 'sub/file', '/etc/passwd', '.rec_x.part', 'rec%2F..']) {
      await expect(store.writeUpload(key, Readable.from([Buffer.from('x')]), 1)).rejects.toThrow(RangeError);
      await expect(store.stat(key)).rejects.toThrow(RangeError);
      await expect(store.read(key)).rejects.toThrow(RangeError);
      await expect(store.remove(key)).rejects.toThrow(RangeError);
    }
    expect(fs.existsSync(outside)).toBe(false);
  });
});
