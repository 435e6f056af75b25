/**
 * @callscore/client against the real server: endpoints, the signed upload endpoint, typed errors from real
 * answers, additive v1 changes, and the basic retry rules through the real fault-injecting HTTP proxy in front of
 * the real server, and the transcript importers' output accepted by the server. More retry rules and the
 * timeouts: retry.test.ts; the upload helper: upload.test.ts.
 */
import fs, { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  CallscoreApiError,
  CallscoreClient,
  CallscoreNetworkError,
  importTranscript,
} from '../../packages/client/src/index.js';
import { KEYS } from '../helpers/workspace.js';
import { OFFICIAL_ORIGIN, body, rejection, useServerAndProxy } from './harness.js';

const h = useServerAndProxy();
const { client } = h;

describe('calls', () => {
  it('createCall answers 202 (created) then 200 (created: false) for the replay; getCall reads it', async () => {
    const { c, sleeps } = client();
    const request = body();
    const first = await c.createCall(request);
    expect(first).toMatchObject({
      object: 'call',
      external_id: request.external_id,
      provider: 'zoom',
      status: 'queued',
      created: true,
      recording_attached: false,
      attribution: { rep_source: 'rep_email', speaker_source: 'name_match' },
    });
    expect(first.app_url).toBe(`https://app.callscore.test/calls/${first.id}`);

    const again = await c.createCall(request);
    expect(again).toMatchObject({ id: first.id, created: false });

    const call = await c.getCall(first.id);
    expect(call).toMatchObject({
      id: first.id,
      object: 'call',
      status: 'queued',
      skip_reason: null,
      rep: { email: 'bob.stone@acme.test' },
      call_type: 'discovery',
      has_recording: false,
    });
    expect(Date.parse(call.occurred_at!)).toBe(Date.parse(request.occurred_at));
    expect(Object.keys(call).sort()).toEqual(
      [
        'app_url',
        'attribution',
        'call_type',
        'created_at',
        'external_id',
        'has_recording',
        'id',
        'object',
        'occurred_at',
        'provider',
        'rep',
        'skip_reason',
        'status',
      ].sort(),
    );
    expect(sleeps).toEqual([]);
  });

  it('getOpenApi reads the contract without an API key', async () => {
    const c = new CallscoreClient({ baseUrl: h.proxy.baseUrl });
    const doc = await c.getOpenApi();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths as object)).toContain('/v1/calls');
    expect(h.proxy.seen[0]!.headers.authorization).toBeUndefined();
  });
});

describe('requests and additive v1 changes', () => {
  it("sends the API key, a JSON body and its User-Agent after the caller's", async () => {
    const { c } = h.viaProxy({ userAgent: 'acme-sync/2.1' });
    expect((await c.createCall(body())).created).toBe(true);
    const [sent] = h.callPosts();
    expect(sent!.headers.authorization).toBe(`Bearer ${KEYS.full}`);
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.headers['user-agent']).toMatch(
      /^acme-sync\/2\.1 callscore-client-js\/\d+\.\d+\.\d+ node\/v\d+/,
    );
  });

  it('accepts a base URL with a trailing slash', async () => {
    const { c } = h.viaProxy({ baseUrl: `${h.proxy.baseUrl}/` });
    expect(c.baseUrl).toBe(h.proxy.baseUrl);
    expect((await c.createCall(body())).created).toBe(true);
    expect(h.callPosts()).toHaveLength(1);
  });

  it('tolerates unknown response fields and unknown enum values', async () => {
    // The real answers, grown within v1 by the proxy: a new field, a new status, new attribution values.
    const grown = {
      status: 'transcribing',
      attribution: { rep_source: 'crm_owner', speaker_source: 'voiceprint', confidence: 0.9 },
      scoring_eta_seconds: 120,
    };
    const { c } = h.viaProxy();
    h.proxy.inject({ kind: 'merge', fields: grown });
    const result = await c.createCall(body());
    expect(result).toMatchObject({ object: 'call', created: true, status: 'transcribing' });
    expect(result.attribution?.rep_source).toBe('crm_owner');
    expect(result['scoring_eta_seconds']).toBe(120);

    h.proxy.inject({ kind: 'merge', fields: grown });
    const call = await c.getCall(result.id);
    expect(call).toMatchObject({ id: result.id, status: 'transcribing', has_recording: false });
    expect(call.attribution?.['confidence']).toBe(0.9);
  });
});

describe('typed errors from real answers', () => {
  it('422 validation_failed carries code, every field and the request id; it is not retried', async () => {
    const { c, sleeps } = client();
    const err = await rejection(
      c.createCall(body({ occurred_at: '2026-11-20T15:04:05+0100', provider: 'not valid!' })),
    );
    expect(err).toBeInstanceOf(CallscoreApiError);
    const e = err as CallscoreApiError;
    expect({ status: e.status, code: e.code, attempts: e.attempts }).toEqual({
      status: 422,
      code: 'validation_failed',
      attempts: 1,
    });
    expect(e.fields.map((f) => f.field).sort()).toEqual(['occurred_at', 'provider']);
    expect(e.requestId).toMatch(/^req_/);
    expect((e.body as { error: { request_id: string } }).error.request_id).toBe(e.requestId);
    expect(sleeps).toEqual([]);
  });

  it.each([
    [{ nickname: 'x' }, 422, 'unknown_field', ['nickname']],
    [{ rep: { email: 'nobody@acme.test' } }, 422, 'rep_not_found', ['rep.email']],
    [
      { transcript: { segments: [{ speaker: 'Bob Stone', text: 'hi' }], rep_speaker: 'Nobody' } },
      422,
      'rep_speaker_not_found',
      ['transcript.rep_speaker'],
    ],
  ])('%j → %i %s', async (overrides, status, code, fields) => {
    const e = (await rejection(client().c.createCall(body(overrides)))) as CallscoreApiError;
    expect({ status: e.status, code: e.code, fields: e.fields.map((f) => f.field) }).toEqual({
      status,
      code,
      fields,
    });
  });

  it('409 external_id_conflict for the same external_id with another transcript', async () => {
    const { c } = client();
    const request = body();
    await c.createCall(request);
    const e = (await rejection(
      c.createCall({ ...request, transcript: body().transcript }),
    )) as CallscoreApiError;
    expect({ status: e.status, code: e.code }).toEqual({ status: 409, code: 'external_id_conflict' });
  });

  it('401 for a revoked key and 404 not_found for an unknown call, thrown at once', async () => {
    const revoked = client({ apiKey: KEYS.revoked });
    const e401 = (await rejection(revoked.c.createCall(body()))) as CallscoreApiError;
    expect({ status: e401.status, code: e401.code, attempts: e401.attempts }).toEqual({
      status: 401,
      code: 'api_key_revoked',
      attempts: 1,
    });
    const e404 = (await rejection(
      client().c.getCall('00000000-0000-4000-8000-000000000000'),
    )) as CallscoreApiError;
    expect({ status: e404.status, code: e404.code }).toEqual({ status: 404, code: 'not_found' });
    expect(revoked.sleeps).toEqual([]);
  });
});

describe('recordings through the real signed upload endpoint', () => {
  const bytes = Buffer.from('ID3 not really an mp3, but bytes all the same');

  it('createRecording + uploadRecording (a path) + createCall with recording_id', async () => {
    const { c } = client();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-rec-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'call.mp3');
    fs.writeFileSync(file, bytes);
    const upload = await c.createRecording({
      content_type: 'audio/mpeg',
      size_bytes: bytes.length,
      filename: 'call.mp3',
    });
    expect(upload).toMatchObject({
      object: 'recording_upload',
      upload_method: 'PUT',
      max_size_bytes: 209_715_200,
    });
    expect(upload.upload_url.startsWith(`${OFFICIAL_ORIGIN}/uploads/recordings/`)).toBe(true);
    await c.uploadRecording(upload, file);
    const call = await c.createCall({ ...body(), recording_id: upload.recording_id });
    expect(call).toMatchObject({ created: true, recording_attached: true });
    expect((await c.getCall(call.id)).has_recording).toBe(true);

    // One recording, one call.
    const e = (await rejection(
      c.createCall({ ...body(), recording_id: upload.recording_id }),
    )) as CallscoreApiError;
    expect({ status: e.status, code: e.code }).toEqual({ status: 409, code: 'recording_already_used' });
  });

  it('createCallWithRecording uploads a buffer and attaches it', async () => {
    const { c } = client();
    const { call, recording } = await c.createCallWithRecording(body(), {
      file: bytes,
      contentType: 'audio/mpeg',
      filename: 'x.mp3',
    });
    expect(call).toMatchObject({ created: true, recording_attached: true });
    expect(recording.recording_id).toMatch(/^rec_/);
  });

  it('a tampered signature is refused with the store error, not retried', async () => {
    const { c, sleeps } = client();
    const upload = await c.createRecording({ content_type: 'audio/mpeg', size_bytes: bytes.length });
    const tampered = { ...upload, upload_url: upload.upload_url.replace(/sig=[^&]+/, 'sig=AAAA') };
    const e = (await rejection(c.uploadRecording(tampered, bytes))) as CallscoreApiError;
    expect({ status: e.status, code: e.code }).toEqual({ status: 403, code: 'upload_signature_invalid' });
    expect(sleeps).toEqual([]);
  });

  it('createCallWithRecording reports the recording id when the call step fails', async () => {
    const { c } = client();
    const e = (await rejection(
      c.createCallWithRecording(body({ rep: { email: 'nobody@acme.test' } }), {
        file: bytes,
        contentType: 'audio/mpeg',
      }),
    )) as CallscoreApiError;
    expect(e.code).toBe('rep_not_found');
    expect(e.recordingId).toMatch(/^rec_/);
    const retry = await client().c.createCall({ ...body(), recording_id: e.recordingId! });
    expect(retry.recording_attached).toBe(true);
  });
});

describe('retry rules through a fault-injecting proxy', () => {
  const { viaProxy, callPosts } = h;

  it('500 backs off 2 s then succeeds against the real server', async () => {
    const { c, sleeps, retries } = viaProxy();
    h.proxy.inject({ status: 500, code: 'internal_error' });
    const result = await c.createCall(body());
    expect(result.created).toBe(true);
    expect(sleeps).toEqual([2000]);
    expect((retries[0]!.error as CallscoreApiError).code).toBe('internal_error');
    expect(callPosts().map((r) => r.fault)).toEqual([true, false]);
  });

  it('503 inference_unavailable waits Retry-After, then the retry reaches the server', async () => {
    const { c, sleeps } = viaProxy();
    h.proxy.inject({ status: 503, code: 'inference_unavailable', headers: { 'Retry-After': '30' } });
    const result = await c.createCall(body());
    expect(result.created).toBe(true);
    expect(sleeps).toEqual([30_000]);
  });

  it('resending a created call after a 500 is a safe replay (200, same id)', async () => {
    const { c, sleeps } = viaProxy();
    const request = body();
    const created = await c.createCall(request);
    // As if the first answer had been lost: the same request again, meeting a 500 first.
    h.proxy.inject({ status: 500 });
    const replay = await c.createCall(request);
    expect(replay).toMatchObject({ id: created.id, created: false });
    expect(sleeps).toEqual([2000]);
  });

  it('exhausts 4 retries on repeated 500s (2, 4, 8, 16 s) and throws the last error', async () => {
    const { c, sleeps, retries } = viaProxy();
    h.proxy.inject(...Array.from({ length: 5 }, () => ({ status: 500, code: 'internal_error' })));
    const e = (await rejection(c.createCall(body()))) as CallscoreApiError;
    expect({ status: e.status, code: e.code, attempts: e.attempts }).toEqual({
      status: 500,
      code: 'internal_error',
      attempts: 5,
    });
    // The last injected answer's id: the error is the final attempt's, not the first.
    const seq = (id: string | null) => Number(/\d+$/.exec(String(id))![0]);
    expect(seq(e.requestId)).toBe(seq((retries.at(-1)!.error as CallscoreApiError).requestId) + 1);
    expect(callPosts().filter((r) => r.fault)).toHaveLength(5);
    expect(sleeps).toEqual([2000, 4000, 8000, 16000]);
    expect(retries.map((r) => [r.operation, r.attempt, r.delayMs, r.error.name])).toEqual([
      ['createCall', 1, 2000, 'CallscoreApiError'],
      ['createCall', 2, 4000, 'CallscoreApiError'],
      ['createCall', 3, 8000, 'CallscoreApiError'],
      ['createCall', 4, 16000, 'CallscoreApiError'],
    ]);
  });

  it('a dropped connection is a network error, retried with back-off', async () => {
    const { c, sleeps, retries } = viaProxy();
    h.proxy.inject({ kind: 'reset' });
    const result = await c.createCall(body());
    expect(result.created).toBe(true);
    expect(retries[0]!.error).toBeInstanceOf(CallscoreNetworkError);
    expect(sleeps).toEqual([2000]);
  });
});

describe('transcript importers feed the server', () => {
  // Parsing itself is tested without a server in packages/client/test/importers.test.ts.
  const fixtures = new URL('../../packages/client/test/fixtures/', import.meta.url);

  it.each(['teams.vtt', 'zoom.vtt', 'meet.vtt', 'call.srt', 'lines.txt', 'headers-bracket.txt'])(
    'imports %s into segments the server accepts',
    async (name) => {
      const { segments } = importTranscript(readFileSync(new URL(name, fixtures)), { filename: name });
      // No rep: the call is attributed to the key's owner, Ada Park, who speaks in every fixture.
      const { c } = client();
      const result = await c.createCall({
        external_id: `import-${name}`,
        provider: 'upload',
        occurred_at: '2025-03-04T14:30:00Z',
        transcript: { segments, rep_speaker: 'Ada Park' },
      });
      expect(result).toMatchObject({ created: true, status: 'queued' });
      expect((await c.getCall(result.id)).rep?.email).toBe('ada@acme.test');
    },
  );
});
