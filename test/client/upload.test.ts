/**
 * The client's recording upload helper against the real server's signed upload endpoint. The server issues the
 * upload URL on its official origin; the harness's fetch sends it to the real proxy, which records the PUT exactly
 * as the client sent it and forwards it to the server. What was stored is read back from the server's recording
 * store and its recordings table. Path upload + attach, a tampered signature and the recording id on a failed
 * call step are in client.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRecordingById } from '../../src/store/recordings.repo.js';
import { OFFICIAL_ORIGIN, body, rejection, useServerAndProxy } from './harness.js';

const h = useServerAndProxy();
let dir: string;
// Not a real MP3; the service treats recordings as opaque bytes.
const audio = Buffer.from(Array.from({ length: 70_001 }, (_, i) => (i * 31) % 256));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'callscore-client-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The PUTs of one recording the proxy received (a PUT aborted by an earlier test may still arrive late). */
const puts = (recordingId: string) =>
  h.proxy.seen.filter((r) => r.method === 'PUT' && r.path.startsWith(`/uploads/recordings/${recordingId}?`));

/** The bytes the server stored for a recording. */
async function stored(recordingId: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await h.t.deps.recordings.read(recordingId)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const row = (recordingId: string) => findRecordingById(h.t.deps.store.db, recordingId);

describe('createCallWithRecording', () => {
  it('uploads a file path with the upload headers, no Authorization and an exact Content-Length', async () => {
    const file = join(dir, 'demo-call.mp3');
    await writeFile(file, audio);
    const { c } = h.viaProxy();
    const { call, recording } = await c.createCallWithRecording(body(), { file, contentType: 'audio/mpeg' });
    expect(call).toMatchObject({ created: true, recording_attached: true });

    expect(puts(recording.recording_id)).toHaveLength(1);
    const put = puts(recording.recording_id)[0]!;
    expect(put.path).toBe(recording.upload_url.slice(OFFICIAL_ORIGIN.length));
    for (const [name, value] of Object.entries(recording.upload_headers)) {
      expect(put.headers[name.toLowerCase()], name).toBe(value);
    }
    expect(put.headers.authorization).toBeUndefined();
    expect(put.headers['content-length']).toBe(String(audio.length));
    expect(put.headers['transfer-encoding']).toBeUndefined();
    expect((await stored(recording.recording_id)).equals(audio)).toBe(true);

    expect(await row(recording.recording_id)).toMatchObject({
      content_type: 'audio/mpeg',
      size_bytes: audio.length,
      filename: 'demo-call.mp3',
      status: 'uploaded',
      call_id: call.id,
    });
    const posted = h.callPosts();
    expect(posted).toHaveLength(1);
    expect((await c.getCall(call.id)).has_recording).toBe(true);
  });

  it('uploads a Buffer under the filename given', async () => {
    const { c } = h.viaProxy();
    const { recording } = await c.createCallWithRecording(body(), {
      file: audio,
      contentType: 'audio/wav',
      filename: 'call.wav',
    });
    expect(await row(recording.recording_id)).toMatchObject({
      content_type: 'audio/wav',
      size_bytes: audio.length,
      filename: 'call.wav',
    });
    expect(puts(recording.recording_id)[0]!.headers['content-length']).toBe(String(audio.length));
    expect((await stored(recording.recording_id)).equals(audio)).toBe(true);
  });

  it('streams a web ReadableStream of known size without chunked encoding', async () => {
    const stream = Readable.toWeb(
      Readable.from([audio.subarray(0, 1000), audio.subarray(1000)]),
    ) as ReadableStream<Uint8Array>;
    const { c } = h.viaProxy();
    const { recording } = await c.createCallWithRecording(body(), {
      file: stream,
      contentType: 'audio/ogg',
      size: audio.length,
    });
    const put = puts(recording.recording_id)[0]!;
    expect(put.headers['transfer-encoding']).toBeUndefined();
    expect(put.headers['content-length']).toBe(String(audio.length));
    expect((await stored(recording.recording_id)).equals(audio)).toBe(true);
    expect(await row(recording.recording_id)).toMatchObject({ size_bytes: audio.length, filename: null });
  });

  it('buffers a Node stream of unknown size to learn its length', async () => {
    const { c } = h.viaProxy();
    const { recording } = await c.createCallWithRecording(body(), {
      file: Readable.from([audio.subarray(0, 5), audio.subarray(5)]),
      contentType: 'audio/flac',
    });
    expect(await row(recording.recording_id)).toMatchObject({ size_bytes: audio.length });
    expect(puts(recording.recording_id)[0]!.headers['content-length']).toBe(String(audio.length));
    expect((await stored(recording.recording_id)).equals(audio)).toBe(true);
  });

  it('refuses a stream shorter than its declared size and never creates the call', async () => {
    const { c } = h.viaProxy();
    const e = await rejection(
      c.createCallWithRecording(body(), {
        file: Readable.from([audio.subarray(0, 100)]),
        contentType: 'audio/mpeg',
        size: 200,
      }),
    );
    expect(e).toBeInstanceOf(RangeError);
    expect((e as Error).message).toMatch(/100 bytes.*200/);
    const issued = h.proxy.seen.filter((r) => r.method === 'POST' && r.path === '/v1/recordings');
    expect(issued).toHaveLength(1);
    expect(h.callPosts()).toHaveLength(0);
    // The server kept nothing: the recording is still pending, with no bytes stored.
    const pending = await h.t.deps.store.db
      .selectFrom('recordings')
      .select(['id', 'status'])
      .where('size_bytes', '=', 200)
      .execute();
    expect(pending).toMatchObject([{ status: 'pending' }]);
    expect(await h.t.deps.recordings.stat(pending[0]!.id)).toBeNull();
  });
});

describe('uploadRecording', () => {
  it('sends exactly the upload headers given, whatever they are, and never an Authorization header', async () => {
    // A store may sign more headers than Content-Type (S3 does): each one is sent as given; an Authorization
    // header in upload_headers is dropped, since credentials never go to the store.
    const { c } = h.viaProxy();
    const upload = await c.createRecording({ content_type: 'audio/mpeg', size_bytes: audio.length });
    await c.uploadRecording(
      {
        ...upload,
        upload_headers: {
          ...upload.upload_headers,
          'X-Amz-Server-Side-Encryption': 'AES256',
          Authorization: 'Bearer leaked',
        },
      },
      audio,
    );
    const put = puts(upload.recording_id)[0]!;
    expect(put.headers['content-type']).toBe('audio/mpeg');
    expect(put.headers['x-amz-server-side-encryption']).toBe('AES256');
    expect(put.headers.authorization).toBeUndefined();
    expect(put.headers['content-length']).toBe(String(audio.length));
    expect(await row(upload.recording_id)).toMatchObject({ status: 'uploaded' });
  });

  it('refuses upload headers that demand another Content-Length than the file has, before sending', async () => {
    const { c } = h.viaProxy();
    const upload = await c.createRecording({ content_type: 'audio/mpeg', size_bytes: audio.length });
    const e = await rejection(
      c.uploadRecording(
        { ...upload, upload_headers: { ...upload.upload_headers, 'Content-Length': '5' } },
        audio,
      ),
    );
    expect(e).toBeInstanceOf(RangeError);
    expect(puts(upload.recording_id)).toHaveLength(0);
  });
});
