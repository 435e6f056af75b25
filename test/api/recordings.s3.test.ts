/**
 * RECORDINGS_STORE=s3 end to end: the real server (startApp) with a real S3-compatible server (s3rver) on loopback.
 * POST /v1/recordings → PUT to the presigned upload_url → POST /v1/calls with recording_id, then playback in the
 * web app through the store's ranged reads, and a recording added with the web form. Runs on every enabled database.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { countRows, startApp, type TestApp } from '../helpers/app.js';
import { startS3rver, type TestS3 } from '../helpers/s3rver.js';
import { KEYS, callBody, sampleSegments } from '../helpers/workspace.js';
import { WebClient, csrfOf } from '../web/web-client.js';

describeEachDialect('recordings in S3 on %s', (dialect) => {
  let s3: TestS3;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3rver();
    t = await startApp(dialect, { env: s3.env });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  async function issue(size: number, contentType = 'audio/mpeg') {
    const res = await t.api('POST', '/v1/recordings', {
      body: { content_type: contentType, size_bytes: size, filename: 'call.mp3' },
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function put(
    upload: any,
    body: string | Buffer,
    headers: Record<string, string> = upload.upload_headers,
  ) {
    const res = await fetch(upload.upload_url, { method: 'PUT', headers, body: body as BodyInit });
    await res.arrayBuffer();
    return res.status;
  }

  const row = (id: string) =>
    t.deps.store.db.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('issues a presigned PUT to the bucket that binds Content-Type and Content-Length, valid 15 minutes', async () => {
    const before = Date.now();
    const upload = await issue(11);
    const after = Date.now();
    expect(upload).toMatchObject({
      recording_id: expect.stringMatching(/^rec_[0-9a-f]{32}$/),
      object: 'recording_upload',
      upload_method: 'PUT',
      upload_headers: { 'Content-Type': 'audio/mpeg', 'Content-Length': '11' },
      max_size_bytes: 209_715_200,
    });
    const url = new URL(upload.upload_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/${upload.recording_id}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    // 15 minutes from when the server signed it, somewhere between `before` and `after` (whole seconds).
    const expires = Date.parse(upload.expires_at);
    expect(expires).toBeGreaterThan(before + 14 * 60_000);
    expect(expires).toBeLessThanOrEqual(after + 15 * 60_000);
    // No upload route of the API's own: the bytes go to the bucket.
    const own = await fetch(`${t.baseUrl}/uploads/recordings/${upload.recording_id}`, {
      method: 'PUT',
      headers: upload.upload_headers,
      body: 'hello audio',
    });
    expect(own.status).toBe(404);
  });

  it('recording_not_found before the PUT; after it, 202 with recording_attached, and once only', async () => {
    const upload = await issue(11);
    const early = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect([early.status, early.body.error.code]).toEqual([422, 'recording_not_found']);
    expect(early.body.error.fields).toEqual([{ field: 'recording_id', message: expect.any(String) }]);
    expect((await row(upload.recording_id)).status).toBe('pending');

    expect(await put(upload, 'hello audio')).toBe(200);
    const before = await countRows(t.deps);
    const call = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect(call.status, call.text).toBe(202);
    expect(call.body.recording_attached).toBe(true);
    expect((await t.api('GET', `/v1/calls/${call.body.id}`)).body.has_recording).toBe(true);
    expect(await countRows(t.deps)).toEqual({
      calls: before.calls + 1,
      transcripts: before.transcripts + 1,
      jobs: before.jobs + 1,
    });
    expect(await row(upload.recording_id)).toMatchObject({
      status: 'uploaded',
      call_id: call.body.id,
      uploaded_at: expect.any(String),
    });

    const again = await t.api('POST', '/v1/calls', {
      body: callBody({
        recording_id: upload.recording_id,
        transcript: { segments: sampleSegments(' again') },
      }),
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'recording_already_used']);
  });

  it('an object of another size than size_bytes is refused at ingest and discarded', async () => {
    const upload = await issue(11);
    // A real bucket refuses this PUT (Content-Length is signed); s3rver stores it, so the API must catch it.
    const status = await put(upload, 'hello audio!!', { ...upload.upload_headers, 'Content-Length': '13' });
    if (status !== 200)
      console.info(
        `The store itself refused a 13-byte PUT to an 11-byte URL (${status}); checking ingest anyway.`,
      );
    const before = await countRows(t.deps);
    const res = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect([res.status, res.body.error.code]).toEqual([422, 'recording_not_found']);
    if (status === 200) expect(res.body.error.message).toMatch(/13 bytes, not the 11 declared in size_bytes/);
    expect(await countRows(t.deps)).toEqual(before);
    expect((await row(upload.recording_id)).status).toBe('pending');
    expect(await t.deps.recordings.stat(upload.recording_id)).toBeNull();

    // A shorter file too; then the right bytes to the same URL are accepted.
    expect(await put(upload, 'short', { ...upload.upload_headers, 'Content-Length': '5' })).toBe(200);
    const short = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect([short.status, short.body.error.code]).toEqual([422, 'recording_not_found']);
    expect(await put(upload, 'hello audio')).toBe(200);
    const ok = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect([ok.status, ok.body.recording_attached]).toEqual([202, true]);
  });

  it("another account's upload is recording_not_found and is neither confirmed nor attached", async () => {
    const upload = await issue(11);
    expect(await put(upload, 'hello audio')).toBe(200);
    const other = await t.api('POST', '/v1/calls', {
      key: KEYS.other,
      body: callBody({
        recording_id: upload.recording_id,
        rep: null,
        transcript: { segments: sampleSegments(' other'), rep_speaker: 'Bob Stone' },
      }),
    });
    expect([other.status, other.body.error?.code]).toEqual([422, 'recording_not_found']);
    expect(await row(upload.recording_id)).toMatchObject({ status: 'pending', call_id: null });
  });

  it('plays back from the bucket in the web app, whole and by Range', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    const upload = await issue(bytes.length);
    expect(await put(upload, bytes)).toBe(200);
    const call = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect(call.status, call.text).toBe(202);

    const bob = new WebClient(t.baseUrl);
    expect((await bob.signIn('bob.stone@acme.test')).status).toBe(303);
    const whole = await bob.get(`/calls/${call.body.id}/recording`);
    expect([whole.status, whole.text, whole.headers.get('content-type')]).toEqual([
      200,
      bytes.toString(),
      'audio/mpeg',
    ]);
    const part = await bob.get(`/calls/${call.body.id}/recording`, { range: 'bytes=2-5' });
    expect([part.status, part.text, part.headers.get('content-range')]).toEqual([
      206,
      '2345',
      'bytes 2-5/20',
    ]);
    const suffix = await bob.get(`/calls/${call.body.id}/recording`, { range: 'bytes=-3' });
    expect([suffix.status, suffix.text]).toEqual([206, 'hij']);
  });

  it('a recording added with the web form is stored in the bucket', async () => {
    const bob = new WebClient(t.baseUrl);
    expect((await bob.signIn('bob.stone@acme.test')).status).toBe(303);
    const me = await t.deps.store.db
      .selectFrom('team_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .innerJoin('teams as t', 't.id', 'm.team_id')
      .select(['u.id as user_id', 't.id as team_id'])
      .where('u.email', '=', 'bob.stone@acme.test')
      .where('t.name', '=', 'West')
      .executeTakeFirstOrThrow();
    const page = await bob.get('/calls/new');
    const fd = new FormData();
    fd.set('_csrf', csrfOf(page.text));
    fd.set('rep', `${me.user_id}:${me.team_id}`);
    fd.set(
      'transcript',
      `Carla Diaz: Hi, thanks for making time.\nBob Stone: Could you walk me through renewals? ${Math.random()}`,
    );
    fd.set('call_type', 'discovery');
    fd.set('recording', new Blob([Buffer.from('RIFFdata-bytes')], { type: 'audio/wav' }), 'call.wav');
    const res = await fetch(`${t.baseUrl}/calls/new`, {
      method: 'POST',
      body: fd,
      redirect: 'manual',
      headers: { cookie: [...bob.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.status, await res.text()).toBe(303);
    const id = /^\/calls\/([0-9a-f-]{36})/.exec(res.headers.get('location')!)![1]!;
    const recordingId = (
      await t.deps.store.db
        .selectFrom('calls')
        .select('recording_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).recording_id!;
    expect(await t.deps.recordings.stat(recordingId)).toEqual({ sizeBytes: 14 });
    const media = await bob.get(`/calls/${id}/recording`, { range: 'bytes=0-3' });
    expect([media.status, media.text, media.headers.get('content-type')]).toEqual([206, 'RIFF', 'audio/wav']);
  });

  it('a store that does not answer is 503 service_unavailable with Retry-After (run last: stops s3rver)', async () => {
    const upload = await issue(11);
    expect(await put(upload, 'hello audio')).toBe(200);
    await s3.stop();
    const before = await countRows(t.deps);
    const res = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect([res.status, res.body.error.code, res.headers.get('retry-after')]).toEqual([
      503,
      'service_unavailable',
      '5',
    ]);
    expect(await countRows(t.deps)).toEqual(before);
    expect((await row(upload.recording_id)).status).toBe('pending');
  });
});
