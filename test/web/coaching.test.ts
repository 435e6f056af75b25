/**
 * Coaching on the call page over real HTTP: notes, reassign, re-run, rep speaker correction, score overrides,
 * recording playback with Range, the CSV export and calls added in the web app. Every action checks role,
 * visibility (404 outside it) and the form token (403). Runs on every enabled database.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { recordTestResult } from '../helpers/results.js';
import { KEYS, SCORECARDS, callBody, inferableSegments } from '../helpers/workspace.js';
import { teamId } from './admin.helpers.js';
import { PASSWORD, WebClient, csrfOf, webWorkspace } from './web-client.js';

function workspace() {
  const w = webWorkspace();
  w.accounts[0]!.users!.push(
    { email: 'wendy@acme.test', name: 'Wendy West', password: PASSWORD, role: 'manager', teams: ['West'] },
    { email: 'ray@acme.test', name: 'Ray Rep', password: PASSWORD, role: 'rep', teams: ['West'] },
  );
  return w;
}

const PASTED = [
  'Carla Diaz: Hi, thanks for making time today.',
  'Bob Stone: Of course. Could you walk me through how your team handles renewals today?',
  'Carla Diaz: Mostly spreadsheets.',
  'Bob Stone: As a next step I will send a calendar invite.',
].join('\n');

describeEachDialect('coaching on %s', (dialect) => {
  let t: TestApp;
  const web: Record<string, WebClient> = {};

  async function signedIn(email: string): Promise<WebClient> {
    const client = new WebClient(t.baseUrl);
    const res = await client.signIn(email);
    expect(res.status, res.text).toBe(303);
    return client;
  }

  async function createCall(body: Record<string, unknown> = {}, key = KEYS.full): Promise<string> {
    const res = await t.api('POST', '/v1/calls', { key, body: callBody(body) });
    expect(res.status, res.text).toBe(202);
    return res.body.id as string;
  }

  async function post(client: WebClient, path: string, form: Record<string, string>) {
    return client.post(path, { _csrf: await client.csrf(), ...form });
  }

  const call = (id: string) =>
    t.deps.store.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const jobs = (id: string) =>
    t.deps.store.db
      .selectFrom('scoring_jobs')
      .selectAll()
      .where('call_id', '=', id)
      .orderBy('created_at')
      .execute();
  const userId = async (email: string) =>
    (
      await t.deps.store.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    t = await startApp(dialect, { workspace: workspace() });
    for (const email of ['bob.stone@acme.test', 'wendy@acme.test', 'mo@acme.test', 'ada@acme.test'])
      web[email] = await signedIn(email);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('notes', () => {
    it('a rep notes a turn of their own call; the note shows under the turn, escaped', async () => {
      const id = await createCall();
      const bob = web['bob.stone@acme.test']!;
      const res = await post(bob, `/calls/${id}/comments`, {
        turn: '1',
        body: '<script>alert(1)</script> Ask about budget',
      });
      expect([res.status, res.location]).toEqual([303, `/calls/${id}?notice=commented#turn-1`]);
      const page = await bob.get(res.location!);
      expect(page.text).toContain('Note added.');
      const turn = page.text.slice(page.text.indexOf('id="turn-1"'), page.text.indexOf('id="turn-2"'));
      expect(turn).toContain('&lt;script>alert(1)&lt;/script> Ask about budget');
      expect(page.text).not.toContain('<script>alert(1)');
      const rows = await t.deps.store.db
        .selectFrom('call_comments')
        .selectAll()
        .where('call_id', '=', id)
        .execute();
      expect(rows.map((r) => [r.turn_index, r.author_user_id])).toEqual([
        [1, await userId('bob.stone@acme.test')],
      ]);
    });

    it('refuses an empty note, a turn outside the transcript and a missing form token', async () => {
      const id = await createCall();
      const bob = web['bob.stone@acme.test']!;
      // A refused note shows the page again (422) with the message beside the field it is about, which is
      // marked invalid, tied to it and focused; what was typed is kept.
      const empty = await post(bob, `/calls/${id}/comments`, { turn: '1', body: '   ' });
      expect(empty.status).toBe(422);
      expect(empty.text).toMatch(
        /<textarea[^>]*aria-invalid="true"[^>]*aria-describedby="note-body-error"[^>]*autofocus/,
      );
      expect(empty.text).toContain(
        '<p id="note-body-error" class="field-error" role="alert">Write a note of',
      );
      expect(empty.text).not.toContain('<p class="alert" role="alert">Write a note');
      expect(empty.text).toMatch(/<option value="1" selected>Turn 2/);
      const far = await post(bob, `/calls/${id}/comments`, { turn: '99', body: 'Keep <this> & that' });
      expect(far.status).toBe(422);
      expect(far.text).toMatch(/<select id="note-turn" name="turn" aria-invalid="true"/);
      expect(far.text).toContain('>Keep &lt;this> &amp; that</textarea>');
      // A redirect's error code (the select forms') is shown the same way.
      const page = await bob.get(`/calls/${id}?error=comment`);
      expect(page.text).toContain('<p id="note-body-error" class="field-error" role="alert">Write a note of');
      const noToken = await bob.post(`/calls/${id}/comments`, { body: 'x' });
      expect(noToken.status).toBe(403);
      expect(
        await t.deps.store.db.selectFrom('call_comments').selectAll().where('call_id', '=', id).execute(),
      ).toEqual([]);
    });

    it('another team’s manager gets 404 for every action on the call', async () => {
      const id = await createCall();
      const mo = web['mo@acme.test']!;
      for (const [path, form] of [
        ['comments', { body: 'hello' }],
        ['reassign', { member: 'x:y' }],
        ['rerun', {}],
        ['speaker', { label: 'Carla Diaz' }],
        ['overrides', { criterion: 'next_steps', score: '10', comment: 'no' }],
      ] as const) {
        const res = await post(mo, `/calls/${id}/${path}`, form);
        expect(res.status, path).toBe(404);
      }
      expect((await mo.get(`/calls/${id}/recording`)).status).toBe(404);
    });
  });

  describe('rep speaker', () => {
    it('the call page says why inference named the rep speaker', async () => {
      const segments = inferableSegments();
      const id = await createCall({ transcript: { segments } });
      expect((await call(id)).speaker_source).toBe('inferred');
      const page = await web['bob.stone@acme.test']!.get(`/calls/${id}`);
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/class="sub speaker-reason">Seller-side phrases: [a-z ]+/);
      // A speaker given by the client has no reason to show.
      const given = await createCall();
      expect((await web['bob.stone@acme.test']!.get(`/calls/${given}`)).text).not.toContain('speaker-reason');
    });
  });

  describe('managers', () => {
    it('a rep sees no manager actions and gets 404 for them', async () => {
      const id = await createCall();
      const bob = web['bob.stone@acme.test']!;
      const page = await bob.get(`/calls/${id}`);
      expect(page.text).toContain('Coaching notes');
      expect(page.text).not.toContain('Manager actions');
      for (const path of ['reassign', 'rerun', 'speaker', 'overrides']) {
        expect((await post(bob, `/calls/${id}/${path}`, {})).status, path).toBe(404);
      }
    });

    it('reassigns to another active rep of the team: owner, team and scorecard change, the call is re-queued', async () => {
      const id = await createCall({ call_type: 'negotiation' });
      await recordTestResult(t.deps.store.db, id, { score: 64 });
      const wendy = web['wendy@acme.test']!;
      const page = await wendy.get(`/calls/${id}`);
      expect(page.text).toContain('Manager actions');
      expect(page.text).toMatch(/class="score score-big score-[a-z]+">64</);
      const ray = await userId('ray@acme.test');
      const west = (await call(id)).team_id;
      // Pending and inactive members are not offered.
      expect(page.text).toContain(`value="${ray}:${west}"`);
      expect(page.text).not.toContain('Nia New');
      const res = await post(wendy, `/calls/${id}/reassign`, { member: `${ray}:${west}` });
      expect([res.status, res.location]).toEqual([303, `/calls/${id}?notice=reassigned`]);
      const row = await call(id);
      expect([row.rep_user_id, row.team_id, row.scorecard_id, row.status, row.current_score]).toEqual([
        ray,
        west,
        SCORECARDS.negotiation,
        'queued',
        null, // Bob's score is not Ray's: no score shows or counts until the call is scored again
      ]);
      expect(row.ingest_rep_user_id).toBe(await userId('bob.stone@acme.test'));
      const js = await jobs(id);
      expect(js.map((j) => [j.reason, j.status])).toEqual([
        ['ingest', 'done'],
        ['test', 'done'], // recordTestResult's scoring
        ['reassign', 'queued'],
      ]);
      const api = await t.api('GET', `/v1/calls/${id}`);
      expect(api.body.rep.email).toBe('ray@acme.test');
      expect(api.body.attribution).toEqual({ rep_source: 'rep_email', speaker_source: 'name_match' });
      const after = await wendy.get(`/calls/${id}`);
      expect(after.text).toContain('Reassigned from Bob Stone (West) to Ray Rep (West)');
      expect(after.text).not.toContain('score-big');
      // Bob no longer sees it; Ray does.
      expect((await web['bob.stone@acme.test']!.get(`/calls/${id}`)).status).toBe(404);
    });

    it('refuses a member outside the manager’s teams, and a team without a usable scorecard', async () => {
      const id = await createCall({ call_type: 'negotiation' });
      const erin = await userId('erin@acme.test');
      const east = await teamId(t, 'East');
      const wendyRes = await post(web['wendy@acme.test']!, `/calls/${id}/reassign`, {
        member: `${erin}:${east}`,
      });
      expect(wendyRes.location).toBe(`/calls/${id}?error=member#manage`);
      // East's negotiation rule points to an archived scorecard: an admin cannot move the call there.
      const adaRes = await post(web['ada@acme.test']!, `/calls/${id}/reassign`, {
        member: `${erin}:${east}`,
      });
      expect(adaRes.location).toBe(`/calls/${id}?error=no_scorecard#manage`);
      const page = await web['ada@acme.test']!.get(adaRes.location!);
      expect(page.text).toContain('has no published scorecard for this call type');
      expect((await call(id)).rep_user_id).toBe(await userId('bob.stone@acme.test'));
      expect((await jobs(id)).length).toBe(1);
    });

    it('keeps a customer participant as the title when the rep speaker is corrected', async () => {
      const id = await createCall({
        participants: [
          { role: 'rep', name: 'Bob Stone' },
          { role: 'customer', name: 'Dana Buyer', speaker_label: 'Carla Diaz' },
        ],
      });
      expect((await call(id)).title).toBe('Dana Buyer');
      const res = await post(web['wendy@acme.test']!, `/calls/${id}/speaker`, { label: 'Carla Diaz' });
      expect(res.location).toBe(`/calls/${id}?notice=speaker`);
      expect((await call(id)).title).toBe('Dana Buyer');
    });

    it('re-runs only a failed call (failed → queued)', async () => {
      const id = await createCall();
      const wendy = web['wendy@acme.test']!;
      expect((await post(wendy, `/calls/${id}/rerun`, {})).location).toBe(
        `/calls/${id}?error=not_failed#manage`,
      );
      await t.deps.store.db
        .updateTable('scoring_jobs')
        .set({ status: 'done' })
        .where('call_id', '=', id)
        .execute();
      await t.deps.store.db.updateTable('calls').set({ status: 'failed' }).where('id', '=', id).execute();
      expect((await wendy.get(`/calls/${id}`)).text).toContain('Re-run scoring');
      const res = await post(wendy, `/calls/${id}/rerun`, {});
      expect(res.location).toBe(`/calls/${id}?notice=rerun`);
      expect((await call(id)).status).toBe('queued');
      expect((await jobs(id)).map((j) => j.reason)).toEqual(['ingest', 'rerun']);
    });

    it('corrects the rep speaker to one of the transcript’s labels; attribution stays as it arrived', async () => {
      const id = await createCall();
      const wendy = web['wendy@acme.test']!;
      // Without a customer participant the title is the first label that is not the rep's.
      expect((await call(id)).title).toBe('Carla Diaz');
      expect((await post(wendy, `/calls/${id}/speaker`, { label: 'Nobody' })).location).toContain(
        'error=label',
      );
      const res = await post(wendy, `/calls/${id}/speaker`, { label: 'Carla Diaz' });
      expect(res.location).toBe(`/calls/${id}?notice=speaker`);
      const row = await call(id);
      expect([row.rep_speaker, row.speaker_source, row.status, row.title]).toEqual([
        'Carla Diaz',
        'name_match',
        'queued',
        'Bob Stone',
      ]);
      expect((await jobs(id)).map((j) => j.reason)).toEqual(['ingest', 'speaker']);
      const page = await wendy.get(`/calls/${id}`);
      expect(page.text).toContain('Rep speaker corrected from “Bob Stone” to “Carla Diaz”');
      // The page says who corrected it, not how the call arrived (that is the API's attribution).
      expect(page.text).toContain('— corrected by Wendy West');
      expect(page.text).not.toContain('matched by the rep&#39;s name or email');
    });

    it('overrides a criterion score with a comment: both scores and the adjusted call score show', async () => {
      const id = await createCall();
      const criteria = [
        {
          key: 'next_steps',
          title: 'Agrees next steps',
          weight: 1,
          score: 1,
          na: false,
          evidence: [],
          rationale: 'ok',
        },
        {
          key: 'questions',
          title: 'Asks questions',
          weight: 1,
          score: 0.5,
          na: false,
          evidence: [],
          rationale: 'ok',
        },
      ];
      await recordTestResult(t.deps.store.db, id, {
        score: 75,
        criteria,
        scorecardId: SCORECARDS.discovery,
        scorecardVersion: 3,
      });
      const wendy = web['wendy@acme.test']!;
      const bad = await post(wendy, `/calls/${id}/overrides`, {
        criterion: 'next_steps',
        score: '140',
        comment: 'x',
      });
      expect(bad.status).toBe(422); // the page again, with what was typed
      expect(bad.text).toMatch(/<input id="override-score"[^>]*value="140"[^>]*aria-invalid="true"/);
      expect(bad.text).toContain('>x</textarea>');
      expect(bad.text).toMatch(/<option value="next_steps" selected>/);
      const res = await post(wendy, `/calls/${id}/overrides`, {
        criterion: 'next_steps',
        score: '20',
        comment: 'Proposed a step but <b>no date</b>.',
      });
      expect(res.location).toBe(`/calls/${id}?notice=override#score-heading`);
      const page = await web['bob.stone@acme.test']!.get(`/calls/${id}`);
      expect(page.text).toMatch(/class="score score-big score-high">75</);
      expect(page.text).toContain('<span class="sub"> (version 3)</span>'); // the scorecard version it used
      expect(page.text).toMatch(/Adjusted by a manager: <span class="score score-low">35<\/span>/);
      expect(page.text).toContain('Manager’s score:');
      expect(page.text).toContain('Proposed a step but &lt;b>no date&lt;/b>.');
      expect(page.text).toContain('by <span>Wendy West</span>');
      const rows = await t.deps.store.db
        .selectFrom('criterion_overrides')
        .selectAll()
        .where('call_id', '=', id)
        .execute();
      expect(rows.map((r) => [r.criterion_key, Number(r.score)])).toEqual([['next_steps', 0.2]]);
      // The AI's result is untouched.
      const result = await t.deps.store.db
        .selectFrom('score_results')
        .select('criteria')
        .where('call_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(result.criteria)[0].score).toBe(1);
      // So is the score the dashboard reads: an override adjusts the call page, not the AI's score.
      const call = await t.deps.store.db
        .selectFrom('calls')
        .select('current_score')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(call.current_score).toBe(75);
    });
  });

  describe('recording playback', () => {
    let id = '';
    const bytes = Buffer.from('0123456789abcdefghij');

    beforeAll(async () => {
      const upload = await t.api('POST', '/v1/recordings', {
        body: { content_type: 'audio/mpeg', size_bytes: bytes.length },
      });
      expect(upload.status).toBe(201);
      const put = await fetch(upload.body.upload_url.replace('https://api.callscore.test', t.baseUrl), {
        method: 'PUT',
        headers: upload.body.upload_headers,
        body: bytes,
      });
      expect(put.status).toBeLessThan(300);
      id = await createCall({ recording_id: upload.body.recording_id });
    });

    it('shows a player and seekable turn times, with the script served as a file', async () => {
      const bob = web['bob.stone@acme.test']!;
      const page = await bob.get(`/calls/${id}`);
      expect(page.text).toContain(
        `<audio id="call-player" class="player" controls="" preload="metadata" src="/calls/${id}/recording">`,
      );
      expect(page.text).toMatch(/<button type="button" class="button-link seek" data-seek-ms="4000"/);
      expect(page.text).toContain('<script src="/assets/coaching.js" defer></script>');
      const script = await new WebClient(t.baseUrl).get('/assets/coaching.js');
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
      expect(script.text).toContain('data-seek-ms');
    });

    it('streams the file whole, or a range with 206, and refuses unsatisfiable ranges with 416', async () => {
      const bob = web['bob.stone@acme.test']!;
      const whole = await bob.get(`/calls/${id}/recording`);
      expect([
        whole.status,
        whole.text,
        whole.headers.get('content-type'),
        whole.headers.get('accept-ranges'),
      ]).toEqual([200, bytes.toString(), 'audio/mpeg', 'bytes']);
      const part = await bob.get(`/calls/${id}/recording`, { range: 'bytes=2-5' });
      expect([part.status, part.text, part.headers.get('content-range')]).toEqual([
        206,
        '2345',
        'bytes 2-5/20',
      ]);
      const open = await bob.get(`/calls/${id}/recording`, { range: 'bytes=15-' });
      expect([open.status, open.text]).toEqual([206, 'fghij']);
      const suffix = await bob.get(`/calls/${id}/recording`, { range: 'bytes=-3' });
      expect([suffix.status, suffix.text, suffix.headers.get('content-range')]).toEqual([
        206,
        'hij',
        'bytes 17-19/20',
      ]);
      for (const range of ['bytes=20-30', 'bytes=5-2', 'bytes=x-']) {
        const bad = await bob.get(`/calls/${id}/recording`, { range });
        expect([bad.status, bad.headers.get('content-range')], range).toEqual([416, 'bytes */20']);
      }
    });

    it('is 404 outside the viewer’s scope and for a call without a recording', async () => {
      expect((await web['mo@acme.test']!.get(`/calls/${id}/recording`)).status).toBe(404);
      const bare = await createCall();
      expect((await web['bob.stone@acme.test']!.get(`/calls/${bare}/recording`)).status).toBe(404);
      const anonymous = await new WebClient(t.baseUrl).get(`/calls/${id}/recording`);
      expect(anonymous.status).toBe(303);
    });
  });

  describe('CSV export', () => {
    it('exports the visible calls with the library’s filters, injection-safe', async () => {
      const evil = await createCall({
        participants: [{ role: 'customer', name: '=HYPERLINK("http://x","y")' }],
      });
      const east = await createCall(
        {
          rep: { email: 'erin@acme.test' },
          transcript: {
            segments: [
              { speaker: 'Dana Buyer', text: `Hello ${Math.random()}`, start_ms: 0 },
              { speaker: 'Erin East', text: 'Hi there, what brings you here?', start_ms: 1000 },
            ],
          },
        },
        KEYS.east,
      );
      const bob = web['bob.stone@acme.test']!;
      const res = await bob.get('/calls.csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toMatch(
        /attachment; filename="calls-\d{4}-\d{2}-\d{2}\.csv"/,
      );
      const lines = res.text.trimEnd().split('\r\n');
      expect(lines[0]).toBe('date,rep,team,title,call_type,status,score,app_url');
      const evilLine = lines.find((l) => l.endsWith(`/calls/${evil}`))!;
      expect(evilLine).toContain(
        `,"'=HYPERLINK(""http://x"",""y"")",discovery,queued,,https://app.callscore.test/calls/${evil}`,
      );
      expect(evilLine.startsWith('2026-11-20T15:04:05.000Z,Bob Stone,West,')).toBe(true);
      expect(res.text).not.toContain(east);
      // Every row is one of Bob's calls, as in the library.
      const visible = await t.deps.store.db
        .selectFrom('calls')
        .select('id')
        .where('rep_user_id', '=', await userId('bob.stone@acme.test'))
        .execute();
      expect(lines.length - 1).toBe(visible.length);
      const filtered = await bob.get('/calls.csv?status=failed');
      expect(filtered.text.trimEnd().split('\r\n').length).toBe(1);
      const admin = await web['ada@acme.test']!.get('/calls.csv');
      expect(admin.text).toContain(east);
      expect((await bob.get('/calls')).text).toContain('href="/calls.csv"');
    });
  });

  describe('calls added in the web app', () => {
    async function submit(
      client: WebClient,
      fields: Record<string, string | Blob>,
      filename?: Record<string, string>,
    ) {
      const page = await client.get('/calls/new');
      expect(page.status).toBe(200);
      const fd = new FormData();
      fd.set('_csrf', csrfOf(page.text));
      for (const [k, v] of Object.entries(fields)) {
        if (typeof v === 'string') fd.set(k, v);
        else fd.set(k, v, filename?.[k] ?? 'file');
      }
      const res = await fetch(`${t.baseUrl}/calls/new`, {
        method: 'POST',
        body: fd,
        redirect: 'manual',
        headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      return { status: res.status, location: res.headers.get('location'), text: await res.text() };
    }

    it('refuses an anonymous upload before reading its body', async () => {
      const { hostname, port } = new URL(t.baseUrl);
      const answer = await new Promise<{ status?: number; location?: string }>((resolve, reject) => {
        // 150 MB announced, a few bytes sent: the answer must come without the rest.
        const req = request({
          hostname,
          port,
          path: '/calls/new',
          method: 'POST',
          headers: {
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(150 * 1024 * 1024),
          },
        });
        req.on('response', (res) => {
          resolve({ status: res.statusCode, location: res.headers.location });
          req.destroy();
        });
        req.on('error', reject);
        req.write('--x\r\n');
      });
      expect(answer).toEqual({ status: 303, location: '/login?next=%2Fcalls' });
    });

    it('the rep list never picks someone silently: a rep themselves, a manager a prompt', async () => {
      const selected = (html: string) => /<option value="([^"]*)" selected>/.exec(html)?.[1];
      const bobForm = await web['bob.stone@acme.test']!.get('/calls/new');
      expect(selected(bobForm.text)).toMatch(new RegExp(`^${await userId('bob.stone@acme.test')}:`));
      const wendyForm = await web['wendy@acme.test']!.get('/calls/new');
      expect(selected(wendyForm.text) ?? '').toBe('');
      expect(wendyForm.text).toContain('Choose a rep');
      expect((await submit(web['wendy@acme.test']!, { rep: '', transcript: PASTED })).status).toBe(422);
    });

    it('a call added without the rep speaker: the page says it was inferred, and why', async () => {
      const bob = web['bob.stone@acme.test']!;
      const west = await teamId(t, 'West');
      const lines = inferableSegments().map((s) => `${s.speaker}: ${s.text}`);
      const res = await submit(bob, {
        rep: `${await userId('bob.stone@acme.test')}:${west}`,
        transcript: [...lines, `Speaker 1: Ref ${Math.random()}`].join('\n'),
        call_type: 'cold_call',
      });
      expect(res.status, res.text).toBe(303);
      const page = await bob.get(res.location!);
      expect(page.text).toMatch(
        /Speaker 2<\/span> <span class="sub">— inferred from the dialogue \(confidence \d+%\)/,
      );
      expect(page.text).toContain('class="sub speaker-reason">Seller-side phrases:');
    });

    it('a rep pastes a transcript: the call has no attribution and is readable through the API', async () => {
      const bob = web['bob.stone@acme.test']!;
      const bobId = await userId('bob.stone@acme.test');
      const west = await teamId(t, 'West');
      const res = await submit(bob, {
        rep: `${bobId}:${west}`,
        transcript: `${PASTED}\nCarla Diaz: Ref ${Math.random()}`,
        call_type: 'negotiation',
        occurred_at: '2026-11-20T10:30',
      });
      expect(res.status, res.text).toBe(303);
      const id = /^\/calls\/([0-9a-f-]{36})\?notice=created$/.exec(res.location!)![1]!;
      const row = await call(id);
      expect([
        row.rep_speaker,
        row.speaker_source,
        row.rep_source,
        row.provider,
        row.scorecard_id,
        row.occurred_at,
      ]).toEqual(['Bob Stone', 'name_match', null, null, SCORECARDS.negotiation, '2026-11-20T10:30:00.000Z']);
      const api = await t.api('GET', `/v1/calls/${id}`);
      expect(api.status).toBe(200);
      expect(api.body).toMatchObject({
        id,
        attribution: null,
        status: 'queued',
        rep: { email: 'bob.stone@acme.test' },
        call_type: 'negotiation',
      });
      expect((await jobs(id)).map((j) => j.status)).toEqual(['queued']);
      const page = await bob.get(res.location!);
      expect(page.text).toContain('Call added. It is queued for scoring.');
      expect(page.text).toContain('<h1>Carla Diaz</h1>');
    });

    it('a manager uploads a WebVTT file and a recording for a rep of the team', async () => {
      const wendy = web['wendy@acme.test']!;
      const ray = await userId('ray@acme.test');
      const west = await teamId(t, 'West');
      const vtt = `WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Dana Buyer>Hello there ${Math.random()}</v>\n\n00:00:04.000 --> 00:00:06.000\n<v Ray R.>Thanks for joining, what should we cover?</v>\n`;
      const res = await submit(
        wendy,
        {
          rep: `${ray}:${west}`,
          transcript_file: new Blob([vtt], { type: 'text/vtt' }),
          rep_speaker: 'ray r.',
          recording: new Blob([Buffer.from('RIFFdata-bytes')], { type: 'audio/wav' }),
        },
        { transcript_file: 'call.vtt', recording: 'call.wav' },
      );
      expect(res.status, res.text).toBe(303);
      const id = /^\/calls\/([0-9a-f-]{36})/.exec(res.location!)![1]!;
      const row = await call(id);
      expect([row.rep_user_id, row.rep_speaker, row.title]).toEqual([ray, 'Ray R.', 'Dana Buyer']);
      const turns = JSON.parse(
        (
          await t.deps.store.db
            .selectFrom('call_transcripts')
            .select('turns')
            .where('call_id', '=', id)
            .executeTakeFirstOrThrow()
        ).turns,
      );
      expect(turns[1]).toEqual({
        speaker: 'Ray R.',
        text: 'Thanks for joining, what should we cover?',
        start_ms: 4000,
      });
      const media = await wendy.get(`/calls/${id}/recording`, { range: 'bytes=0-3' });
      expect([media.status, media.text, media.headers.get('content-type')]).toEqual([
        206,
        'RIFF',
        'audio/wav',
      ]);
      const api = await t.api('GET', `/v1/calls/${id}`);
      expect([api.body.has_recording, api.body.attribution]).toEqual([true, null]);
    });

    it('reads an uploaded .txt file exactly as pasted text: the API parser, whatever the labels look like', async () => {
      const wendy = web['wendy@acme.test']!;
      const ray = await userId('ray@acme.test');
      const west = await teamId(t, 'West');
      const text = `Jordan Lee (VP of Operations, Northwind Inc.): Hello there ${Math.random()}\nRay R.: Thanks, what should we cover?\n`;
      const res = await submit(
        wendy,
        {
          rep: `${ray}:${west}`,
          transcript_file: new Blob([text], { type: 'text/plain' }),
          rep_speaker: 'Ray R.',
        },
        { transcript_file: 'call.txt' },
      );
      expect(res.status, res.text).toBe(303);
      const id = /^\/calls\/([0-9a-f-]{36})/.exec(res.location!)![1]!;
      const stored = await t.deps.store.db
        .selectFrom('call_transcripts')
        .select('turns')
        .where('call_id', '=', id)
        .executeTakeFirstOrThrow();
      const turns = JSON.parse(stored.turns) as { speaker: string }[];
      expect(turns.map((turn) => turn.speaker)).toEqual([
        'Jordan Lee (VP of Operations, Northwind Inc.)',
        'Ray R.',
      ]);
    });

    it('shows errors next to the fields and keeps the pasted text; a rep cannot make calls for others', async () => {
      const bob = web['bob.stone@acme.test']!;
      const ray = await userId('ray@acme.test');
      const west = await teamId(t, 'West');
      const before = await t.deps.store.db.selectFrom('calls').select('id').execute();
      const unlabeled = await submit(bob, {
        rep: `${ray}:${west}`,
        transcript: 'just some words <b>here</b>',
      });
      expect(unlabeled.status).toBe(422);
      expect(unlabeled.text).toContain('id="nc-rep-error"');
      expect(unlabeled.text).toContain('id="nc-transcript-error"');
      expect(unlabeled.text).toContain('or upload a transcript file.');
      expect(unlabeled.text).not.toContain('transcript.segments');
      expect(unlabeled.text).toContain('just some words &lt;b>here&lt;/b>');
      const bobId = await userId('bob.stone@acme.test');
      const wrongSpeaker = await submit(bob, {
        rep: `${bobId}:${west}`,
        transcript: PASTED,
        rep_speaker: 'Zed',
      });
      expect(wrongSpeaker.status).toBe(422);
      expect(wrongSpeaker.text).toContain('The transcript’s labels are: Carla Diaz, Bob Stone.');
      const noToken = await fetch(`${t.baseUrl}/calls/new`, {
        method: 'POST',
        body: (() => {
          const fd = new FormData();
          fd.set('transcript', PASTED);
          return fd;
        })(),
        redirect: 'manual',
        headers: { cookie: [...bob.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      expect(noToken.status).toBe(403);
      expect((await t.deps.store.db.selectFrom('calls').select('id').execute()).length).toBe(before.length);
    });
  });
});
