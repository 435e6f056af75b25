import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallscoreApiError, CallscoreClient, type CreateCallRequest } from '../src/index.js';
import { type ContractServer, startContractServer } from './helpers/contract-server.js';

let api: ContractServer;
let dir: string;
let seq = 0;
// Not a real MP3; the service treats recordings as opaque bytes.
const audio = Buffer.from(Array.from({ length: 70_001 }, (_, i) => (i * 31) % 256));

beforeAll(async () => {
  api = await startContractServer();
  dir = await mkdtemp(join(tmpdir(), 'callscore-client-'));
});
afterAll(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

function callBody(): Omit<CreateCallRequest, 'recording_id'> {
  return {
    external_id: `teams-${++seq}`,
    provider: 'teams',
    occurred_at: '2025-03-04T14:30:00Z',
    transcript: {
      segments: [
        { speaker: 'Ada Park', text: 'Shall we look at the rollout plan?' },
        { speaker: 'Sam Lee', text: 'Yes, please.' },
      ],
      rep_speaker: 'Ada Park',
    },
  };
}

const client = () => new CallscoreClient({ baseUrl: api.baseUrl, apiKey: api.apiKey, sleep: async () => {} });

function lastRecordingRequest() {
  return api.requests.filter((r) => r.path === '/v1/recordings').at(-1)!;
}

describe('createCallWithRecording', () => {
  it('uploads a file path with exactly the upload headers, no Authorization, exact Content-Length', async () => {
    const path = join(dir, 'demo-call.mp3');
    await writeFile(path, audio);
    const { call, recording } = await client().createCallWithRecording(callBody(), {
      file: path,
      contentType: 'audio/mpeg',
    });

    expect(lastRecordingRequest().body).toEqual({
      content_type: 'audio/mpeg',
      size_bytes: audio.length,
      filename: 'demo-call.mp3',
    });
    const put = api.requests.find(
      (r) => r.method === 'PUT' && r.path === `/uploads/${recording.recording_id}`,
    )!;
    expect(put.headers.authorization).toBeUndefined();
    expect(put.headers['content-type']).toBe('audio/mpeg');
    expect(put.headers['x-upload-token']).toBe(recording.upload_headers['X-Upload-Token']);
    expect(put.headers['content-length']).toBe(String(audio.length));
    expect(put.headers['transfer-encoding']).toBeUndefined();
    expect(api.uploads.get(recording.recording_id)?.bytes.equals(audio)).toBe(true);

    expect(call).toMatchObject({ created: true, recording_attached: true });
    const posted = api.requests.filter((r) => r.path === '/v1/calls').at(-1)!;
    expect((posted.body as { recording_id: string }).recording_id).toBe(recording.recording_id);
  });

  it('uploads a Buffer, with the filename given', async () => {
    const { recording } = await client().createCallWithRecording(callBody(), {
      file: audio,
      contentType: 'audio/wav',
      filename: 'call.wav',
    });
    expect(lastRecordingRequest().body).toMatchObject({ size_bytes: audio.length, filename: 'call.wav' });
    expect(api.uploads.get(recording.recording_id)?.headers['content-length']).toBe(String(audio.length));
  });

  it('streams a web ReadableStream of known size without chunked encoding', async () => {
    const stream = Readable.toWeb(
      Readable.from([audio.subarray(0, 1000), audio.subarray(1000)]),
    ) as ReadableStream<Uint8Array>;
    const { recording } = await client().createCallWithRecording(callBody(), {
      file: stream,
      contentType: 'audio/ogg',
      size: audio.length,
    });
    const got = api.uploads.get(recording.recording_id)!;
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(got.bytes.equals(audio)).toBe(true);
    expect(lastRecordingRequest().body).not.toHaveProperty('filename');
  });

  it('buffers a Node stream of unknown size to learn its length', async () => {
    const { recording } = await client().createCallWithRecording(callBody(), {
      file: Readable.from([audio.subarray(0, 5), audio.subarray(5)]),
      contentType: 'audio/flac',
    });
    expect(lastRecordingRequest().body).toMatchObject({ size_bytes: audio.length });
    expect(api.uploads.get(recording.recording_id)?.bytes.equals(audio)).toBe(true);
  });

  it('refuses a stream shorter than its declared size and never creates the call', async () => {
    const before = api.requests.filter((r) => r.path === '/v1/calls').length;
    const err = await client()
      .createCallWithRecording(callBody(), {
        file: Readable.from([audio.subarray(0, 100)]),
        contentType: 'audio/mpeg',
        size: 200,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/100 bytes.*200/);
    expect(api.requests.filter((r) => r.path === '/v1/calls').length).toBe(before);
  });

  it('when creating the call fails after the upload, the error carries the recording id', async () => {
    const body = { ...callBody(), occurred_at: 'yesterday' };
    const err = await client()
      .createCallWithRecording(body, { file: audio, contentType: 'audio/mpeg' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallscoreApiError);
    const apiErr = err as CallscoreApiError;
    expect(apiErr.code).toBe('validation_failed');
    expect(apiErr.recordingId).toMatch(/^rec_/);
    expect(api.uploads.has(apiErr.recordingId!)).toBe(true);
  });

  it('reports a refused upload as CallscoreApiError from the store', async () => {
    const c = client();
    const upload = await c.createRecording({ content_type: 'audio/mpeg', size_bytes: audio.length });
    // Tampering with the signed headers is what a store refuses.
    const tampered = { ...upload, upload_headers: { ...upload.upload_headers, 'X-Upload-Token': 'forged' } };
    const err = await c.uploadRecording(tampered, audio, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, code: 'invalid_signature' });
  });
});
