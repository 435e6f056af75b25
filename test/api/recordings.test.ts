import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { countRows, startApp, type TestApp } from '../helpers/app.js';
import { callBody, sampleSegments } from '../helpers/workspace.js';

describeEachDialect('recordings on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(async () => t?.close());

  /** The upload URL points at the official base; the test reaches the same server on loopback. */
  function local(uploadUrl: string): string {
    const u = new URL(uploadUrl);
    return `${t.baseUrl}${u.pathname}${u.search}`;
  }

  async function issue(size = 11, contentType = 'audio/mpeg') {
    const res = await t.api('POST', '/v1/recordings', {
      body: { content_type: contentType, size_bytes: size, filename: 'call.mp3' },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function put(
    upload: any,
    body: Buffer | string,
    headers: Record<string, string> = upload.upload_headers,
  ) {
    const res = await fetch(local(upload.upload_url), { method: 'PUT', headers, body: body as BodyInit });
    return {
      status: res.status,
      body: await res.json().catch(() => null),
      requestId: res.headers.get('x-request-id'),
    };
  }

  it('issues an upload on the official base, valid 15 minutes', async () => {
    const before = Date.now();
    const upload = await issue();
    const after = Date.now();
    expect(upload).toMatchObject({
      recording_id: expect.any(String),
      object: 'recording_upload',
      upload_method: 'PUT',
      upload_headers: { 'Content-Type': 'audio/mpeg' },
      max_size_bytes: 209_715_200,
    });
    expect(upload.upload_url.startsWith('https://api.callscore.test/')).toBe(true);
    expect(upload.upload_url).not.toContain('/v1/');
    // 15 minutes from when the server issued it, somewhere between `before` and `after` (whole seconds).
    const expires = Date.parse(upload.expires_at);
    expect(expires).toBeGreaterThan(before + 14 * 60_000);
    expect(expires).toBeLessThanOrEqual(after + 15 * 60_000);
  });

  it('uploads without Authorization and attaches once', async () => {
    const upload = await issue();
    const done = await put(upload, 'hello audio');
    expect(done.status).toBe(200);
    expect(done.requestId).toBeTruthy();
    const call = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: upload.recording_id }) });
    expect(call.status).toBe(202);
    expect(call.body.recording_attached).toBe(true);
    expect((await t.api('GET', `/v1/calls/${call.body.id}`)).body.has_recording).toBe(true);
    const before = await countRows(t.deps);
    const again = await t.api('POST', '/v1/calls', {
      body: callBody({
        recording_id: upload.recording_id,
        transcript: { segments: sampleSegments(' again') },
      }),
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'recording_already_used']);
    expect(await countRows(t.deps)).toEqual(before);
  });

  it('recording_not_found before the upload and for unknown ids', async () => {
    const upload = await issue();
    for (const id of [upload.recording_id, 'rec_unknown']) {
      const before = await countRows(t.deps);
      const res = await t.api('POST', '/v1/calls', { body: callBody({ recording_id: id }) });
      expect([res.status, res.body.error.code]).toEqual([422, 'recording_not_found']);
      expect(await countRows(t.deps)).toEqual(before);
    }
  });

  it('refuses a changed signature, a wrong Content-Type and a wrong length', async () => {
    const upload = await issue();
    const tampered = { ...upload, upload_url: upload.upload_url.replace(/sig=[^&]+/, 'sig=AAAA') };
    expect((await put(tampered, 'hello audio')).status).toBe(403);
    // Any change to the signature is a changed URL (403), even one in the part bound to the Content-Type.
    const sig = /sig=([^&]+)/.exec(upload.upload_url)![1]!;
    for (const altered of [`${sig}x`, `x${sig}`]) {
      const res = await put(
        { ...upload, upload_url: upload.upload_url.replace(sig, altered) },
        'hello audio',
      );
      expect([res.status, res.body?.error?.code]).toEqual([403, 'upload_signature_invalid']);
    }
    expect((await put(upload, 'hello audio', { 'Content-Type': 'audio/wav' })).status).toBe(415);
    expect((await put(upload, 'hello audio!!')).status).not.toBe(200);
    expect((await put(upload, 'short')).status).not.toBe(200);
    const biggerSize = { ...upload, upload_url: upload.upload_url.replace(/size=\d+/, 'size=13') };
    expect((await put(biggerSize, 'hello audio!!')).status).toBe(403);
    const row = await t.deps.store.db
      .selectFrom('recordings')
      .selectAll()
      .where('id', '=', upload.recording_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it.each([
    [{ content_type: 'text/plain', size_bytes: 10 }, 422, 'recording_type_not_supported'],
    [{ content_type: 'audio/mpeg', size_bytes: 209_715_201 }, 422, 'recording_too_large'],
    [{ content_type: 'audio/mpeg', size_bytes: 0 }, 422, 'validation_failed'],
    [{ content_type: 'audio/mpeg', size_bytes: 1.5 }, 422, 'validation_failed'],
    [{ content_type: 'audio/mpeg', size_bytes: '10' }, 422, 'validation_failed'],
    [{ content_type: '', size_bytes: 10 }, 422, 'validation_failed'],
    [{ size_bytes: 10 }, 422, 'validation_failed'],
    [{ content_type: 'audio/mpeg', size_bytes: 10, filename: '' }, 422, 'validation_failed'],
    [{ content_type: 'audio/mpeg', size_bytes: 10, title: 'x' }, 422, 'unknown_field'],
    // A NUL character is a validation error, so an unknown field outranks it (DESIGN 1b step 4).
    [{ content_type: 'audio/mpeg', size_bytes: 10, filename: 'a\u0000', title: 'x' }, 422, 'unknown_field'],
    [{ content_type: 'audio/mpeg', size_bytes: 10, filename: 'a\u0000' }, 422, 'validation_failed'],
  ])('%j → %i %s', async (body, status, code) => {
    const res = await t.api('POST', '/v1/recordings', { body });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
  });

  it('accepts every supported content type and the 200 MB maximum', async () => {
    for (const type of ['audio/mpeg', 'audio/wav', 'video/mp4', 'video/x-matroska', 'audio/flac'])
      await issue(209_715_200, type);
  });

  it('400, 413 and 415 on POST /v1/recordings', async () => {
    expect(
      (await t.api('POST', '/v1/recordings', { raw: '{', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect(
      (await t.api('POST', '/v1/recordings', { raw: 'x', headers: { 'content-type': 'audio/mpeg' } })).status,
    ).toBe(415);
    const big = await t.api('POST', '/v1/recordings', {
      body: { content_type: 'audio/mpeg', size_bytes: 10, filename: 'x'.repeat(1_100_000) },
    });
    expect(big.status).toBe(413);
  });
});
