import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { countRows, startApp, type TestApp } from '../helpers/app.js';
import { KEYS, SCORECARDS, callBody, inferableSegments, sampleSegments } from '../helpers/workspace.js';

describeEachDialect('POST /v1/calls happy paths on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(async () => t?.close());

  it('creates a queued call: 202, Location on the official base, app_url, attribution', async () => {
    const body = callBody({ provider: 'Zoom' });
    const res = await t.api('POST', '/v1/calls', { body });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'call',
      external_id: body.external_id,
      provider: 'zoom',
      status: 'queued',
      created: true,
      attribution: { rep_source: 'rep_email', speaker_source: 'name_match' },
      recording_attached: false,
      app_url: `https://app.callscore.test/calls/${res.body.id}`,
    });
    expect(res.headers.get('location')).toBe(`https://api.callscore.test/v1/calls/${res.body.id}`);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const get = await t.api('GET', `/v1/calls/${res.body.id}`);
    expect(get.status).toBe(200);
    expect(get.body.status).toBe('queued');
    const job = await t.deps.store.db
      .selectFrom('scoring_jobs')
      .selectAll()
      .where('call_id', '=', res.body.id)
      .executeTakeFirst();
    expect(job?.status).toBe('queued');
  });

  it('never returns scores or transcript text', async () => {
    const res = await t.api('POST', '/v1/calls', { body: callBody() });
    expect(res.text).not.toContain('spreadsheets');
    expect(Object.keys(res.body)).not.toContain('score');
  });

  it('replays the same provider + external_id with the same transcript: 200, created false, nothing new', async () => {
    const body = callBody();
    const first = await t.api('POST', '/v1/calls', { body });
    const before = await countRows(t.deps);
    // Whitespace differences, timestamps, metadata and call type do not make it a different call.
    const original = (body.transcript as { segments: { speaker: string; text: string }[] }).segments;
    const segments = original.map((s) => ({
      ...s,
      text: `  ${s.text.replace(/ /g, '   ')} `,
      start_ms: null,
    }));
    const replay = await t.api('POST', '/v1/calls', {
      body: {
        ...body,
        provider: 'ZOOM',
        call_type: 'negotiation',
        metadata: { x: 1 },
        transcript: { segments },
      },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.created).toBe(false);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.headers.get('location')).toBeNull();
    expect(await countRows(t.deps)).toEqual(before);
  });

  it('answers 409 external_id_conflict for the same external_id with another transcript', async () => {
    const body = callBody();
    await t.api('POST', '/v1/calls', { body });
    const res = await t.api('POST', '/v1/calls', {
      body: { ...body, transcript: { segments: sampleSegments(' Changed.') } },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('external_id_conflict');
  });

  it('returns the existing call for the same transcript and rep under a new external_id', async () => {
    const segments = sampleSegments(' Unique-7781.');
    const first = await t.api('POST', '/v1/calls', { body: callBody({ transcript: { segments } }) });
    const second = await t.api('POST', '/v1/calls', { body: callBody({ transcript: { segments } }) });
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(false);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.external_id).toBe(first.body.external_id);
  });

  it('treats the same transcript for a different rep as a new call', async () => {
    const segments = [
      { speaker: 'Erin East', text: 'Hello, I am calling about your renewal plans.' },
      { speaker: 'Carla Diaz', text: 'Sure, go ahead.' },
    ];
    const a = await t.api('POST', '/v1/calls', {
      body: callBody({ rep: { email: 'erin@acme.test' }, transcript: { segments } }),
    });
    const b = await t.api('POST', '/v1/calls', {
      body: callBody({ rep: null, transcript: { segments, rep_speaker: 'Erin East' } }),
    });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('treats the segment and plain-text forms of one dialogue as the same transcript', async () => {
    const segments = sampleSegments(' Form-test.');
    const text = segments.map((s) => `${s.speaker}: ${s.text}`).join('\n');
    const a = await t.api('POST', '/v1/calls', { body: callBody({ transcript: { segments } }) });
    const b = await t.api('POST', '/v1/calls', { body: callBody({ transcript: { text } }) });
    expect(a.status).toBe(202);
    expect(b.status).toBe(200);
    expect(b.body.id).toBe(a.body.id);
  });

  it('creates exactly one call from 20 concurrent identical POSTs', async () => {
    const body = callBody({ transcript: { segments: sampleSegments(' Race.') } });
    const before = await countRows(t.deps);
    const results = await Promise.all(Array.from({ length: 20 }, () => t.api('POST', '/v1/calls', { body })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const after = await countRows(t.deps);
    expect(after.calls - before.calls).toBe(1);
    expect(after.jobs - before.jobs).toBe(1);
  });

  it('files a call without rep under the key team and owner (api_key_owner)', async () => {
    const res = await t.api('POST', '/v1/calls', {
      body: callBody({
        rep: undefined,
        transcript: { segments: sampleSegments(' Owner.'), rep_speaker: 'bob  STONE' },
      }),
    });
    expect(res.status).toBe(202);
    expect(res.body.attribution).toEqual({ rep_source: 'api_key_owner', speaker_source: 'rep_speaker' });
    const get = await t.api('GET', `/v1/calls/${res.body.id}`);
    expect(get.body.rep).toEqual({ email: 'ada@acme.test' });
  });

  it('matches the rep by participant role rep (name_match)', async () => {
    const segments = [
      { speaker: 'Speaker 1', text: 'Thanks for calling, this is a discovery call.' },
      { speaker: 'Speaker 2', text: 'Happy to be here.' },
    ];
    const res = await t.api('POST', '/v1/calls', {
      body: callBody({
        transcript: { segments },
        participants: [
          { role: 'customer', name: 'Carla Diaz', speaker_label: 'Speaker 1' },
          { role: 'rep', name: 'Bob Stone', speaker_label: 'speaker 2' },
        ],
      }),
    });
    expect(res.status).toBe(202);
    expect(res.body.attribution.speaker_source).toBe('name_match');
    const row = await t.deps.store.db
      .selectFrom('calls')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.rep_speaker).toBe('Speaker 2');
    expect(row.title).toBe('Carla Diaz');
  });

  it('matches the rep email case-insensitively', async () => {
    const res = await t.api('POST', '/v1/calls', {
      body: callBody({ rep: { email: 'BOB.STONE@ACME.TEST' } }),
    });
    expect(res.status).toBe(202);
  });

  it('selects the scorecard: explicit id, the team rule for the call type, else the default', async () => {
    const scorecardOf = async (id: string) =>
      (
        await t.deps.store.db
          .selectFrom('calls')
          .select('scorecard_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).scorecard_id;
    const explicit = await t.api('POST', '/v1/calls', {
      body: callBody({ scorecard_id: SCORECARDS.negotiation, call_type: 'discovery' }),
    });
    expect(await scorecardOf(explicit.body.id)).toBe(SCORECARDS.negotiation);
    const rule = await t.api('POST', '/v1/calls', {
      body: callBody({ call_type: 'negotiation', transcript: { segments: sampleSegments(' r') } }),
    });
    expect(await scorecardOf(rule.body.id)).toBe(SCORECARDS.negotiation);
    const fallback = await t.api('POST', '/v1/calls', {
      body: callBody({ call_type: 'gatekeeper', transcript: { segments: sampleSegments(' d') } }),
    });
    expect(await scorecardOf(fallback.body.id)).toBe(SCORECARDS.discovery);
  });

  it('classifies the call type when omitted and stores it', async () => {
    const res = await t.api('POST', '/v1/calls', {
      body: callBody({ call_type: undefined, transcript: { segments: sampleSegments(' c') } }),
    });
    expect(res.status).toBe(202);
    const get = await t.api('GET', `/v1/calls/${res.body.id}`);
    expect(get.body.call_type).toEqual(expect.any(String));
  });

  it('accepts both plain-text layouts', async () => {
    const headerLayout =
      '[00:01] Carla Diaz\nHi there.\n\n[00:05] Bob Stone\nWhat brings you here today?\n00:09 - Carla Diaz\nWe need a better tool.';
    const res = await t.api('POST', '/v1/calls', { body: callBody({ transcript: { text: headerLayout } }) });
    expect(res.status).toBe(202);
    const row = await t.deps.store.db
      .selectFrom('call_transcripts')
      .selectAll()
      .where('call_id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    const turns = JSON.parse(row.turns);
    expect(turns.map((x: { speaker: string }) => x.speaker)).toEqual([
      'Carla Diaz',
      'Bob Stone',
      'Carla Diaz',
    ]);
    expect(turns[1].start_ms).toBe(5000);
  });

  it('merges consecutive same-speaker segments into one turn', async () => {
    const segments = [
      { speaker: 'Bob Stone', text: 'Hello.' },
      { speaker: 'Bob Stone', text: 'Thanks for joining.' },
      { speaker: 'Carla Diaz', text: 'Hi.' },
    ];
    const res = await t.api('POST', '/v1/calls', { body: callBody({ transcript: { segments } }) });
    const row = await t.deps.store.db
      .selectFrom('call_transcripts')
      .selectAll()
      .where('call_id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.turns)).toHaveLength(2);
  });

  it('accepts every nullable optional field as null', async () => {
    const res = await t.api('POST', '/v1/calls', {
      body: callBody({
        call_type: null,
        scorecard_id: null,
        participants: null,
        recording_id: null,
        metadata: null,
        transcript: { segments: sampleSegments(' nulls'), text: null, rep_speaker: null },
      }),
    });
    expect(res.status).toBe(202);
  });

  it('serves the alias host identically while Location stays on the official base', async () => {
    const res = await t.api('POST', '/v1/calls', {
      body: callBody(),
      headers: { host: 'alias.callscore.test' },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`https://api.callscore.test/v1/calls/${res.body.id}`);
  });

  it('lets a key without rep use the rep_speaker label', async () => {
    const res = await t.api('POST', '/v1/calls', {
      key: KEYS.callsOnly,
      body: callBody({
        rep: undefined,
        transcript: { segments: sampleSegments(' k'), rep_speaker: 'Carla Diaz' },
      }),
    });
    expect(res.status).toBe(202);
  });

  it('infers the rep speaker from the dialogue when nothing else decides (rep speaks second)', async () => {
    const segments = inferableSegments();
    const res = await t.api('POST', '/v1/calls', {
      body: callBody({ call_type: null, transcript: { segments } }),
    });
    expect(res.status).toBe(202);
    expect(res.body.attribution.speaker_source).toBe('inferred');
    const row = await t.deps.store.db
      .selectFrom('calls')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.rep_speaker).toBe('Speaker 2');
    expect(row.speaker_confidence).toBeGreaterThan(0);
    const transcript = await t.deps.store.db
      .selectFrom('call_transcripts')
      .select('speaker_signals')
      .where('call_id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(transcript.speaker_signals!)).toEqual(expect.any(Object));
    expect((await t.api('GET', `/v1/calls/${res.body.id}`)).body.call_type).toBe('cold_call');
  });
});
