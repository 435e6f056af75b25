import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { countRows, startApp, type TestApp } from '../helpers/app.js';
import { KEYS, SCORECARDS, callBody, sampleSegments } from '../helpers/workspace.js';

describeEachDialect('POST /v1/calls errors on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(async () => t?.close());

  /** Sends the body and asserts the error, the request id echo and that nothing was saved. */
  async function expectError(
    body: unknown,
    status: number,
    code: string,
    fields?: string[],
    key: string = KEYS.full,
  ) {
    const before = await countRows(t.deps);
    const res = await t.api('POST', '/v1/calls', { body, key });
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    expect(typeof res.body.error.message).toBe('string');
    if (fields)
      expect(res.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([...fields].sort());
    expect(await countRows(t.deps)).toEqual(before);
    return res;
  }

  describe('unknown_field at every level', () => {
    it.each([
      [{ nickname: 'x' }, 'nickname'],
      [{ rep: { email: 'bob.stone@acme.test', nickname: 'b' } }, 'rep.nickname'],
      [{ participants: [{ role: 'customer', name: 'C', age: 3 }] }, 'participants[0].age'],
      [{ transcript: { segments: sampleSegments(), language: 'en' } }, 'transcript.language'],
    ])('%j → %s', async (extra, field) => {
      await expectError(callBody(extra), 422, 'unknown_field', [field]);
    });

    it('names a segment field by index', async () => {
      const segments = sampleSegments();
      (segments[3] as Record<string, unknown>).foo = 1;
      await expectError(callBody({ transcript: { segments } }), 422, 'unknown_field', [
        'transcript.segments[3].foo',
      ]);
    });

    it('lists every unknown field, and beats bad values', async () => {
      await expectError(callBody({ a: 1, b: 2, occurred_at: 'yesterday' }), 422, 'unknown_field', ['a', 'b']);
    });

    it('beats a NUL character, which is a validation error like any other (DESIGN 1b step 4)', async () => {
      await expectError(callBody({ foo: 1, external_id: 'a\u0000b' }), 422, 'unknown_field', ['foo']);
      await expectError(callBody({ foo: 'x\u0000' }), 422, 'unknown_field', ['foo']);
      // With no unknown field, the NUL is listed with the other violations.
      await expectError(callBody({ external_id: 'a\u0000b', provider: 'a.b' }), 422, 'validation_failed', [
        'external_id',
        'provider',
      ]);
    });
  });

  describe('deeply nested JSON answers 422, never 500', () => {
    const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

    it.each([
      ['metadata', 'metadata', (depth: number) => `{"a":${arrays(depth)}}`, 'validation_failed'],
      ['an unknown field', 'deep', arrays, 'unknown_field'],
      ['a typed field', 'external_id', arrays, 'validation_failed'],
    ])('in %s', async (_where, key, value, code) => {
      for (const depth of [10_000, 200_000]) {
        // A valid body whose `key` (the last of that name wins in JSON.parse) is the nested value.
        const raw = `${JSON.stringify(callBody()).slice(0, -1)},"${key}":${value(depth)}}`;
        const before = await countRows(t.deps);
        const res = await t.api('POST', '/v1/calls', {
          raw,
          headers: { 'content-type': 'application/json' },
        });
        expect([res.status, res.body?.error?.code]).toEqual([422, code]);
        expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual([key]);
        expect(await countRows(t.deps)).toEqual(before);
      }
    });
  });

  describe('validation_failed', () => {
    it.each([
      ['missing external_id', { external_id: undefined }, 'external_id'],
      ['empty external_id', { external_id: '' }, 'external_id'],
      ['201-character external_id', { external_id: 'x'.repeat(201) }, 'external_id'],
      ['provider with a dot', { provider: 'zoom.us' }, 'provider'],
      ['provider starting with -', { provider: '-zoom' }, 'provider'],
      ['33-character provider', { provider: 'a'.repeat(33) }, 'provider'],
      ['offset without colon', { occurred_at: '2026-11-20T15:04:05+0100' }, 'occurred_at'],
      ['date only', { occurred_at: '2026-11-20' }, 'occurred_at'],
      ['impossible date', { occurred_at: '2026-02-30T10:00:00Z' }, 'occurred_at'],
      ['before 2000', { occurred_at: '1999-12-31T23:59:59Z' }, 'occurred_at'],
      [
        'more than a day ahead',
        { occurred_at: new Date(Date.now() + 2 * 86_400_000).toISOString() },
        'occurred_at',
      ],
      ['unknown call type', { call_type: 'demo' }, 'call_type'],
      ['scorecard id not a uuid', { scorecard_id: 'abc' }, 'scorecard_id'],
      [
        'scorecard id as a urn',
        { scorecard_id: 'urn:uuid:00000000-0000-4000-8000-000000000000' },
        'scorecard_id',
      ],
      ['rep email invalid', { rep: { email: 'not-an-email' } }, 'rep.email'],
      ['rep without email', { rep: { name: 'Bob' } }, 'rep.email'],
      ['rep name empty', { rep: { email: 'bob.stone@acme.test', name: '' } }, 'rep.name'],
      ['participant role', { participants: [{ role: 'boss', name: 'X' }] }, 'participants[0].role'],
      ['participant without name', { participants: [{ role: 'rep' }] }, 'participants[0].name'],
      [
        '51 participants',
        { participants: Array.from({ length: 51 }, () => ({ role: 'other', name: 'X' })) },
        'participants',
      ],
      ['recording_id too long', { recording_id: 'r'.repeat(101) }, 'recording_id'],
      ['metadata not an object', { metadata: [1, 2] }, 'metadata'],
      ['external_id not a string', { external_id: 42 }, 'external_id'],
      ['missing transcript', { transcript: undefined }, 'transcript'],
    ])('%s', async (_name, overrides, field) => {
      const res = await expectError(callBody(overrides), 422, 'validation_failed');
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it('accepts occurred_at at the window edges (inclusive) and with colon offsets', async () => {
      for (const occurred_at of [
        '2000-01-01T00:00:00Z',
        '2026-11-20T15:04:05.123+01:00',
        '2026-11-20T15:04:05-05:30',
      ]) {
        const res = await t.api('POST', '/v1/calls', {
          body: callBody({ occurred_at, transcript: { segments: sampleSegments(occurred_at) } }),
        });
        expect(res.status).toBe(202);
      }
    });

    it('accepts a leap second (RFC 3339 time-second 60), stored as the instant after second 59', async () => {
      for (const [occurred_at, stored] of [
        ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
        ['2017-01-01T00:59:60.5+01:00', '2017-01-01T00:00:00.500Z'],
      ] as const) {
        const res = await t.api('POST', '/v1/calls', {
          body: callBody({ occurred_at, transcript: { segments: sampleSegments(occurred_at) } }),
        });
        expect(res.status).toBe(202);
        const got = await t.api('GET', `/v1/calls/${res.body.id}`);
        expect(got.body.occurred_at).toBe(stored);
      }
      await expectError(callBody({ occurred_at: '2016-12-31T23:59:61Z' }), 422, 'validation_failed', [
        'occurred_at',
      ]);
    });

    it('accepts any number of fractional-second digits (RFC 3339 time-secfrac is 1*DIGIT)', async () => {
      const occurred_at = '2026-11-20T15:04:05.1234567890123Z';
      const res = await t.api('POST', '/v1/calls', {
        body: callBody({ occurred_at, transcript: { segments: sampleSegments(occurred_at) } }),
      });
      expect(res.status).toBe(202);
      await expectError(callBody({ occurred_at: '2026-11-20T15:04:05.Z' }), 422, 'validation_failed', [
        'occurred_at',
      ]);
    });

    it('names only transcript when it is not an object', async () => {
      await expectError(callBody({ transcript: [] }), 422, 'validation_failed', ['transcript']);
      await expectError(callBody({ transcript: 'A: hi' }), 422, 'validation_failed', ['transcript']);
    });

    it('lists every violation', async () => {
      await expectError(
        callBody({ provider: 'a.b', call_type: 'x', external_id: '' }),
        422,
        'validation_failed',
        ['call_type', 'external_id', 'provider'],
      );
    });

    it('requires exactly one of segments or text', async () => {
      const both = await expectError(
        callBody({ transcript: { segments: sampleSegments(), text: 'A: hi' } }),
        422,
        'validation_failed',
      );
      expect(both.body.error.fields.map((f: { field: string }) => f.field)).toContain('transcript.segments');
      await expectError(callBody({ transcript: { rep_speaker: 'Bob' } }), 422, 'validation_failed');
      await expectError(callBody({ transcript: { segments: null, text: null } }), 422, 'validation_failed');
    });

    it('enforces segment counts and lengths (10,000 segments, 20,000 characters, 600,000 text)', async () => {
      await expectError(callBody({ transcript: { segments: [] } }), 422, 'validation_failed', [
        'transcript.segments',
      ]);
      const many = Array.from({ length: 10_001 }, (_, i) => ({ speaker: i % 2 ? 'A' : 'B', text: 'x' }));
      await expectError(callBody({ transcript: { segments: many } }), 422, 'validation_failed', [
        'transcript.segments',
      ]);
      const long = [{ speaker: 'A', text: 'x'.repeat(20_001) }];
      await expectError(callBody({ transcript: { segments: long } }), 422, 'validation_failed', [
        'transcript.segments[0].text',
      ]);
      await expectError(
        callBody({ transcript: { segments: [{ speaker: '', text: 'x' }] } }),
        422,
        'validation_failed',
        ['transcript.segments[0].speaker'],
      );
      await expectError(
        callBody({ transcript: { segments: [{ speaker: 'A', text: 'x', start_ms: -1 }] } }),
        422,
        'validation_failed',
        ['transcript.segments[0].start_ms'],
      );
      await expectError(
        callBody({ transcript: { segments: [{ speaker: 'A', text: 'x', start_ms: 1.5 }] } }),
        422,
        'validation_failed',
        ['transcript.segments[0].start_ms'],
      );
    });

    it('counts characters as code points: 20,000 emoji fit in a segment', async () => {
      const emoji = '😀'.repeat(20_000); // 40,000 UTF-16 units
      const segments = [
        { speaker: 'Bob Stone', text: emoji },
        { speaker: 'Carla Diaz', text: 'ok' },
      ];
      const res = await t.api('POST', '/v1/calls', { body: callBody({ transcript: { segments } }) });
      expect(res.status).toBe(202);
      const over = [{ speaker: 'Bob Stone', text: '😀'.repeat(20_001) }];
      await expectError(callBody({ transcript: { segments: over } }), 422, 'validation_failed', [
        'transcript.segments[0].text',
      ]);
    });

    it('refuses the NUL character in any string, metadata keys and values included', async () => {
      await expectError(callBody({ external_id: 'a\u0000b' }), 422, 'validation_failed', ['external_id']);
      await expectError(callBody({ metadata: { deal: 'x\u0000' } }), 422, 'validation_failed', [
        'metadata.deal',
      ]);
      await expectError(callBody({ metadata: { ['k\u0000']: 'x' } }), 422, 'validation_failed');
      const segments = sampleSegments();
      segments[1]!.text = 'nul \u0000 here';
      await expectError(callBody({ transcript: { segments } }), 422, 'validation_failed', [
        'transcript.segments[1].text',
      ]);
    });

    it('refuses a lone surrogate (a \\ud800 escape, no character) in any string or key', async () => {
      await expectError(callBody({ external_id: 'a\ud800' }), 422, 'validation_failed', ['external_id']);
      await expectError(callBody({ metadata: { ['k\udc00']: 'x' } }), 422, 'validation_failed');
      const segments = sampleSegments();
      segments[0]!.speaker = `${segments[0]!.speaker}\ud83d`;
      await expectError(callBody({ transcript: { segments } }), 422, 'validation_failed', [
        'transcript.segments[0].speaker',
      ]);
      // A pair is one character and welcome.
      const ok = await t.api('POST', '/v1/calls', { body: callBody({ external_id: 'pair-\ud83d\ude00' }) });
      expect(ok.status).toBe(202);
    });

    it('refuses __proto__ and constructor keys anywhere', async () => {
      const raw = JSON.stringify(callBody()).replace('{', '{"metadata":{"__proto__":{"admin":true}},');
      const before = await countRows(t.deps);
      const res = await t.api('POST', '/v1/calls', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields[0].field).toBe('metadata.__proto__');
      expect(await countRows(t.deps)).toEqual(before);
      await expectError(
        callBody({ metadata: { nested: { constructor: { prototype: 1 } } } }),
        422,
        'validation_failed',
      );
      // A top-level __proto__ is refused the same way, not as an unknown field; like every rule violation, it
      // ranks after unknown fields (DESIGN 1b step 4).
      for (const [prefix, code, field, message] of [
        [
          '"__proto__":{"admin":true}',
          'validation_failed',
          '__proto__',
          'the key "__proto__" is not allowed',
        ],
        ['"zzz":1,"metadata":{"__proto__":1}', 'unknown_field', 'zzz', 'is not a field of the contract'],
      ]) {
        const raw = JSON.stringify(callBody()).replace('{', `{${prefix},`);
        const res = await t.api('POST', '/v1/calls', {
          raw,
          headers: { 'content-type': 'application/json' },
        });
        expect([res.status, res.body.error.code, res.body.error.fields]).toEqual([
          422,
          code,
          [{ field, message }],
        ]);
      }
      expect(await countRows(t.deps)).toEqual(before);
    });

    it('limits metadata to 16 KB and 5 levels', async () => {
      const ok = { a: 'x'.repeat(16_384 - 8) }; // {"a":"…"} is exactly 16,384 bytes
      expect(Buffer.byteLength(JSON.stringify(ok))).toBe(16_384);
      const res = await t.api('POST', '/v1/calls', {
        body: callBody({ metadata: ok, transcript: { segments: sampleSegments(' m') } }),
      });
      expect(res.status).toBe(202);
      await expectError(callBody({ metadata: { a: 'x'.repeat(16_384) } }), 422, 'validation_failed', [
        'metadata',
      ]);
      // The metadata object is level 1; every nested object or array adds one.
      const five = { l2: { l3: { l4: { l5: { leaf: 'ok' } } } } };
      expect((await t.api('POST', '/v1/calls', { body: callBody({ metadata: five }) })).status).toBe(202);
      await expectError(
        callBody({ metadata: { l2: { l3: { l4: { l5: { l6: {} } } } } } }),
        422,
        'validation_failed',
        ['metadata'],
      );
      await expectError(callBody({ metadata: { l2: { l3: { l4: [[[1]]] } } } }), 422, 'validation_failed', [
        'metadata',
      ]);
    });
  });

  describe('transcript rules', () => {
    it('transcript_unlabeled for text without speaker labels', async () => {
      await expectError(
        callBody({ transcript: { text: 'hello there\nhow are you' } }),
        422,
        'transcript_unlabeled',
      );
    });

    it('transcript_too_long over 2,000 merged turns, never truncated', async () => {
      const segments = Array.from({ length: 2_001 }, (_, i) => ({
        speaker: i % 2 ? 'Bob Stone' : 'Carla Diaz',
        text: 'hi',
      }));
      await expectError(callBody({ transcript: { segments } }), 422, 'transcript_too_long');
      // 4,000 segments that merge into 2,000 turns are fine.
      const merged = Array.from({ length: 4_000 }, (_, i) => ({
        speaker: Math.floor(i / 2) % 2 ? 'Bob Stone' : 'Carla Diaz',
        text: 'hi',
      }));
      expect(
        (await t.api('POST', '/v1/calls', { body: callBody({ transcript: { segments: merged } }) })).status,
      ).toBe(202);
    });

    it('transcript_too_long over 400,000 characters', async () => {
      // 21 × 19,999 = 419,979 characters in under 1 MiB of JSON.
      const segments = Array.from({ length: 21 }, (_, i) => ({
        speaker: i % 2 ? 'Bob Stone' : 'Carla Diaz',
        text: 'y'.repeat(19_999),
      }));
      await expectError(callBody({ transcript: { segments } }), 422, 'transcript_too_long');
    });

    it('transcript_unlabeled wins over transcript_too_long', async () => {
      await expectError(
        callBody({ transcript: { text: 'no labels here '.repeat(30_000) } }),
        422,
        'transcript_unlabeled',
      );
    });
  });

  describe('rep resolution', () => {
    it.each([
      ['nobody@acme.test', 'rep_not_found'],
      ['gone@acme.test', 'rep_inactive'],
      ['new@acme.test', 'rep_pending_activation'],
      ['loner@acme.test', 'rep_no_team'],
      ['multi@acme.test', 'rep_ambiguous'],
      ['admin@other.test', 'rep_not_found'],
    ])('%s → %s', async (email, code) => {
      await expectError(callBody({ rep: { email } }), 422, code, ['rep.email']);
    });

    it('team_not_configured when the key team is deleted and no rep is sent', async () => {
      await expectError(
        callBody({ rep: undefined }),
        422,
        'team_not_configured',
        undefined,
        KEYS.deletedTeam,
      );
      const withRep = await t.api('POST', '/v1/calls', {
        body: callBody({ transcript: { segments: sampleSegments(' dt') } }),
        key: KEYS.deletedTeam,
      });
      expect(withRep.status).toBe(202);
    });
  });

  describe('speaker resolution', () => {
    it('rep_speaker_not_found names transcript.rep_speaker', async () => {
      await expectError(
        callBody({ transcript: { segments: sampleSegments(` ${Math.random()}`), rep_speaker: 'Zed' } }),
        422,
        'rep_speaker_not_found',
        ['transcript.rep_speaker'],
      );
    });

    it('rep_speaker_ambiguous when two labels normalise alike', async () => {
      const segments = [
        { speaker: 'Bob  Stone', text: 'Hello there.' },
        { speaker: 'bob stone', text: 'Hi.' },
      ];
      await expectError(
        callBody({ transcript: { segments, rep_speaker: 'BOB STONE' } }),
        422,
        'rep_speaker_ambiguous',
      );
    });

    it('rep_speaker_undetermined rather than a guess; never the first speaker', async () => {
      const segments = [
        { speaker: 'Speaker 1', text: 'Morning.' },
        { speaker: 'Speaker 2', text: 'Morning.' },
      ];
      await expectError(callBody({ transcript: { segments } }), 422, 'rep_speaker_undetermined', [
        'transcript.rep_speaker',
      ]);
    });
  });

  describe('scorecard selection', () => {
    it.each([
      ['unknown id', '99999999-9999-4999-8999-999999999999'],
      ['draft', SCORECARDS.draft],
      ['another team', SCORECARDS.eastDefault],
      ['another account', SCORECARDS.otherAccount],
    ])('scorecard_not_found for %s', async (_name, id) => {
      await expectError(callBody({ scorecard_id: id }), 422, 'scorecard_not_found', ['scorecard_id']);
    });

    it('scorecard_not_configured when the team has no rule and no default', async () => {
      await expectError(
        callBody({
          rep: { email: 'bare@acme.test' },
          transcript: { segments: sampleSegments(), rep_speaker: 'Bob Stone' },
        }),
        422,
        'scorecard_not_configured',
      );
    });

    it('scorecard_rule_unavailable when the rule points to an archived scorecard', async () => {
      const segments = [
        { speaker: 'Erin East', text: 'Let us talk about the contract terms.' },
        { speaker: 'Carla Diaz', text: 'Sure.' },
      ];
      await expectError(
        callBody({ rep: { email: 'erin@acme.test' }, call_type: 'negotiation', transcript: { segments } }),
        422,
        'scorecard_rule_unavailable',
      );
    });
  });

  describe('precedence between steps', () => {
    it('a replay succeeds even when its rep has since been deactivated', async () => {
      const body = callBody({
        rep: { email: 'erin@acme.test' },
        transcript: {
          segments: [
            { speaker: 'Erin East', text: 'Hello.' },
            { speaker: 'X', text: 'Hi.' },
          ],
        },
      });
      expect((await t.api('POST', '/v1/calls', { body })).status).toBe(202);
      await t.deps.store.db
        .updateTable('users')
        .set({ status: 'inactive' })
        .where('email', '=', 'erin@acme.test')
        .execute();
      try {
        const replay = await t.api('POST', '/v1/calls', { body });
        expect(replay.status).toBe(200);
        await expectError({ ...body, external_id: 'fresh-id' }, 422, 'rep_inactive');
      } finally {
        await t.deps.store.db
          .updateTable('users')
          .set({ status: 'active' })
          .where('email', '=', 'erin@acme.test')
          .execute();
      }
    });

    it('transcript errors come before the replay check', async () => {
      const body = callBody();
      await t.api('POST', '/v1/calls', { body });
      await expectError({ ...body, transcript: { text: 'no labels at all' } }, 422, 'transcript_unlabeled');
    });

    it('rep errors come before speaker and scorecard errors', async () => {
      await expectError(
        callBody({
          rep: { email: 'nobody@acme.test' },
          scorecard_id: SCORECARDS.draft,
          transcript: { segments: sampleSegments(` ${Math.random()}`), rep_speaker: 'Zed' },
        }),
        422,
        'rep_not_found',
      );
    });

    it('speaker errors come before scorecard errors', async () => {
      await expectError(
        callBody({
          scorecard_id: SCORECARDS.draft,
          transcript: { segments: sampleSegments(` ${Math.random()}`), rep_speaker: 'Zed' },
        }),
        422,
        'rep_speaker_not_found',
      );
    });

    it('rep errors come before the same-transcript check; the same transcript comes before speaker resolution', async () => {
      const body = callBody();
      expect((await t.api('POST', '/v1/calls', { body })).status).toBe(202);
      await expectError(
        { ...body, external_id: 'other-id-1', rep: { email: 'gone@acme.test' } },
        422,
        'rep_inactive',
      );
      // Same transcript, same rep, new external_id: the existing call answers before rep_speaker is even read.
      const transcript = { ...(body.transcript as object), rep_speaker: 'Nobody' };
      const same = await t.api('POST', '/v1/calls', {
        body: { ...body, external_id: 'other-id-2', transcript },
      });
      expect([same.status, same.body.created]).toEqual([200, false]);
    });

    it('scorecard errors come before recording errors', async () => {
      await expectError(
        callBody({ scorecard_id: SCORECARDS.draft, recording_id: 'rec_missing' }),
        422,
        'scorecard_not_found',
      );
    });
  });
});
