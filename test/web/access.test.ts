/**
 * Web application over real HTTP: sign-in, sessions, CSRF, throttling, activation, and who sees which call
 * (DESIGN 4 "Visibility"). Runs on every enabled database.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { recordTestResult } from '../helpers/results.js';
import { KEYS, callBody } from '../helpers/workspace.js';
import { PASSWORD, WebClient, csrfOf, webWorkspace } from './web-client.js';

function segmentsFor(rep: string, customer: string, extra = '') {
  return [
    { speaker: customer, text: `Hello, thanks for calling.${extra}`, start_ms: 0 },
    { speaker: rep, text: 'Could you walk me through how you handle renewals today?', start_ms: 3000 },
    { speaker: customer, text: 'Mostly spreadsheets.', start_ms: 8000 },
    { speaker: rep, text: 'As a next step I will send a calendar invite.', start_ms: 12000 },
  ];
}

describeEachDialect('web application on %s', (dialect) => {
  let t: TestApp;
  const ids = { bob: '', erin: '', other: '' };

  async function createCall(key: string, body: Record<string, unknown>): Promise<string> {
    const res = await t.api('POST', '/v1/calls', { key, body });
    expect(res.status, res.text).toBe(202);
    return res.body.id as string;
  }

  async function signedIn(email: string): Promise<WebClient> {
    const client = new WebClient(t.baseUrl);
    const res = await client.signIn(email);
    expect(res.status, res.text).toBe(303);
    return client;
  }

  beforeAll(async () => {
    t = await startApp(dialect, { workspace: webWorkspace() });
    ids.bob = await createCall(
      KEYS.full,
      callBody({ participants: [{ role: 'customer', name: 'Carla Diaz', company: 'Globex' }] }),
    );
    ids.erin = await createCall(
      KEYS.east,
      callBody({
        rep: { email: 'erin@acme.test' },
        transcript: { segments: segmentsFor('Erin East', 'Dana Buyer') },
      }),
    );
    ids.other = await createCall(
      KEYS.other,
      callBody({
        rep: null,
        transcript: { segments: segmentsFor('Admin', 'Olga Other'), rep_speaker: 'Admin' },
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('anonymous visitors', () => {
    it.each(['/', '/calls', '/calls?status=queued', 'CALL'])(
      'are sent to /login with next for %s',
      async (path) => {
        const target = path === 'CALL' ? `/calls/${ids.bob}` : path;
        const res = await new WebClient(t.baseUrl).get(target);
        expect(res.status).toBe(303);
        expect(res.location).toBe(`/login?next=${encodeURIComponent(target === '/' ? '/' : target)}`);
      },
    );

    it('get the same redirect for a call id that does not exist (ids do not leak)', async () => {
      const res = await new WebClient(t.baseUrl).get('/calls/00000000-0000-4000-8000-000000000000');
      expect([res.status, res.location]).toEqual([
        303,
        '/login?next=%2Fcalls%2F00000000-0000-4000-8000-000000000000',
      ]);
    });

    it('after the session ended, a posted form leads back to its page and the sign-in page says why', async () => {
      const stale = new WebClient(t.baseUrl);
      stale.cookies.set('callscore_session', 'ended-long-ago');
      const host = new URL(t.baseUrl).host;
      const res = await stale.post(
        `/calls/${ids.bob}/comments`,
        { body: 'x' },
        {
          referer: `http://${host}/calls/${ids.bob}?tab=notes`,
        },
      );
      expect([res.status, res.location]).toEqual([
        303,
        `/login?next=${encodeURIComponent(`/calls/${ids.bob}?tab=notes`)}&ended=1`,
      ]);
      const foreign = await stale.post(
        `/calls/${ids.bob}/comments`,
        { body: 'x' },
        { referer: 'http://evil.test/x' },
      );
      expect(foreign.location).toBe('/login?next=%2Fcalls&ended=1');
      const page = await new WebClient(t.baseUrl).get(res.location!);
      expect(page.text).toContain('Your session ended. Sign in again to continue.');
      expect(page.text).toContain(`name="next" value="/calls/${ids.bob}?tab=notes"`);
    });

    it('see the sign-in form with Email, Password and Sign in, and security headers', async () => {
      const res = await new WebClient(t.baseUrl).get('/login');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toMatch(/<label for="email">Email<\/label>/);
      expect(res.text).toMatch(/<label for="password">Password<\/label>/);
      expect(res.text).toMatch(/<button type="submit"[^>]*>\s*Sign in\s*<\/button>/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      const loginCookie = res.headers.getSetCookie().find((c) => c.startsWith('callscore_login_csrf='));
      expect(loginCookie).toMatch(/HttpOnly/i);
      expect(loginCookie).toMatch(/SameSite=Lax/i);
    });

    it('get an HTML 404 outside /v1 while /v1 keeps the JSON route_not_found', async () => {
      const web = await new WebClient(t.baseUrl).get('/no/such/page');
      expect(web.status).toBe(404);
      expect(web.headers.get('content-type')).toMatch(/^text\/html/);
      expect(web.text).toContain('Page not found');
      expect(web.headers.get('x-frame-options')).toBe('DENY');
      const api = await t.api('GET', '/v1/no-such-thing', { key: null });
      expect([api.status, api.body?.error?.code]).toEqual([404, 'route_not_found']);
    });

    it('are served the stylesheet without signing in', async () => {
      const res = await new WebClient(t.baseUrl).get('/assets/app.css');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/css/);
      expect(res.text).toContain(':focus-visible');
    });
  });

  describe('sign-in', () => {
    it('starts a server-side session: HttpOnly SameSite=Lax cookie, only its SHA-256 stored', async () => {
      const client = new WebClient(t.baseUrl);
      const res = await client.signIn('Bob.Stone@acme.test', PASSWORD, `/calls/${ids.bob}`);
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/calls/${ids.bob}`);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('callscore_session='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i); // plain http on loopback
      const token = client.cookies.get('callscore_session')!;
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      const rows = await t.deps.store.db.selectFrom('sessions').selectAll().execute();
      const digest = createHash('sha256').update(token).digest('hex');
      expect(rows.map((r) => r.id)).toContain(digest);
      expect(JSON.stringify(rows)).not.toContain(token);
      const page = await client.get(`/calls/${ids.bob}`);
      expect(page.status).toBe(200);
    });

    it.each([
      ['//evil.example/x', '/calls'],
      ['https://evil.example/', '/calls'],
      ['/\\evil.example', '/calls'],
      ['javascript:alert(1)', '/calls'],
      ['/..//evil.example/x', '/calls'],
      ['/%2e%2e//evil.example/x', '/calls'],
      ['/calls/../dashboard', '/dashboard'],
      ['/calls?status=queued', '/calls?status=queued'],
    ])('accepts only same-site paths as next (%s → %s)', async (next, expected) => {
      const client = new WebClient(t.baseUrl);
      const page = await client.get('/login');
      const res = await client.post('/login', {
        _csrf: csrfOf(page.text),
        next,
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      expect([res.status, res.location]).toEqual([303, expected]);
    });

    it('sends a signed-in visitor of /login to next only when it stays on this site', async () => {
      const client = await signedIn('ada@acme.test');
      for (const [next, expected] of [
        ['/..//evil.example/phish', '/calls'],
        ['/dashboard', '/dashboard'],
      ]) {
        const res = await client.get(`/login?next=${encodeURIComponent(next!)}`);
        expect([res.status, res.location]).toEqual([303, expected]);
      }
    });

    it('refuses a wrong password or an unknown email with the same message and no session', async () => {
      for (const [email, password] of [
        ['ada@acme.test', 'wrong password'],
        ['nobody@acme.test', PASSWORD],
      ] as const) {
        const client = new WebClient(t.baseUrl);
        const res = await client.signIn(email, password);
        expect(res.status).toBe(401);
        expect(res.text).toContain('Email or password is incorrect.');
        expect(client.cookies.has('callscore_session')).toBe(false);
      }
    });

    it('says which field to fill when one is empty, without counting a failed attempt', async () => {
      for (const [email, password, message] of [
        ['', '', 'Enter your email and password.'],
        ['', PASSWORD, 'Enter your email.'],
        ['ada@acme.test', '', 'Enter your password.'],
      ] as const) {
        const client = new WebClient(t.baseUrl);
        const res = await client.signIn(email, password);
        expect(res.status).toBe(422);
        expect(res.text).toContain(message);
        expect(client.cookies.has('callscore_session')).toBe(false);
      }
    });

    it('activates a pending user with a password at first sign-in', async () => {
      const db = t.deps.store.db;
      const before = await db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'pat@acme.test')
        .executeTakeFirstOrThrow();
      expect([before.status, before.last_sign_in_at]).toEqual(['pending', null]);
      await signedIn('pat@acme.test');
      const after = await db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'pat@acme.test')
        .executeTakeFirstOrThrow();
      expect(after.status).toBe('active');
      expect(after.last_sign_in_at).not.toBeNull();
    });

    it('refuses an inactive user even with the right password', async () => {
      const client = new WebClient(t.baseUrl);
      const res = await client.signIn('ina@acme.test');
      expect(res.status).toBe(403);
      expect(res.text).toContain('deactivated');
      expect(client.cookies.has('callscore_session')).toBe(false);
    });

    it('ends the session of a user deactivated after signing in', async () => {
      // multi@ has no password in the workspace, so cannot sign in yet: give one, sign in, then deactivate.
      expect((await new WebClient(t.baseUrl).signIn('multi@acme.test')).status).toBe(401);
      const db = t.deps.store.db;
      const hash = (
        await db
          .selectFrom('users')
          .select('password_hash')
          .where('email', '=', 'ada@acme.test')
          .executeTakeFirstOrThrow()
      ).password_hash;
      await db
        .updateTable('users')
        .set({ password_hash: hash })
        .where('email', '=', 'multi@acme.test')
        .execute();
      const mia = await signedIn('multi@acme.test');
      expect((await mia.get('/calls')).status).toBe(200);
      await db
        .updateTable('users')
        .set({ status: 'inactive' })
        .where('email', '=', 'multi@acme.test')
        .execute();
      const res = await mia.get('/calls');
      expect([res.status, res.location]).toEqual([303, '/login?next=%2Fcalls&ended=1']);
    });

    it('throttles failed attempts per email and IP: the 6th try is refused even with the right password', async () => {
      const client = new WebClient(t.baseUrl);
      for (let i = 0; i < 5; i++) {
        const res = await client.signIn('erin@acme.test', `wrong-${i}`);
        expect(res.status).toBe(401);
      }
      const blocked = await client.signIn('erin@acme.test', PASSWORD);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(blocked.text).toContain('Too many failed sign-in attempts');
      expect(client.cookies.has('callscore_session')).toBe(false);
      // Another email from the same address is not affected.
      expect((await new WebClient(t.baseUrl).signIn('mo@acme.test')).status).toBe(303);
    });
  });

  describe('CSRF', () => {
    it('answers 403 to a sign-in form without or with a wrong token', async () => {
      const client = new WebClient(t.baseUrl);
      await client.get('/login');
      const missing = await client.post('/login', { email: 'ada@acme.test', password: PASSWORD });
      expect(missing.status).toBe(403);
      const wrong = await client.post('/login', {
        _csrf: 'x'.repeat(43),
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      expect(wrong.status).toBe(403);
      const noCookie = new WebClient(t.baseUrl);
      const res = await noCookie.post('/login', {
        _csrf: csrfOf((await new WebClient(t.baseUrl).get('/login')).text),
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      expect(res.status).toBe(403);
      expect(client.cookies.has('callscore_session') || noCookie.cookies.has('callscore_session')).toBe(
        false,
      );
    });

    it('answers 403 to sign-out without or with a wrong token, and signs out with the right one', async () => {
      const client = await signedIn('ada@acme.test');
      const token = await client.csrf();
      expect((await client.post('/logout', {})).status).toBe(403);
      expect(
        (
          await client.post('/logout', {
            _csrf: `${token.slice(0, -1)}A` === token ? `${token.slice(0, -1)}B` : `${token.slice(0, -1)}A`,
          })
        ).status,
      ).toBe(403);
      expect((await client.get('/calls')).status).toBe(200); // still signed in
      const sessionCookie = client.cookies.get('callscore_session')!;
      const out = await client.post('/logout', { _csrf: token });
      expect([out.status, out.location]).toEqual([303, '/login']);
      // The old cookie is dead on the server, not only cleared in this browser.
      const replay = new WebClient(t.baseUrl);
      replay.cookies.set('callscore_session', sessionCookie);
      expect((await replay.get('/calls')).status).toBe(303);
    });
  });

  describe('visibility', () => {
    it('a rep sees their own call and gets 404 for another team’s call or another account’s', async () => {
      const bob = await signedIn('bob.stone@acme.test');
      const own = await bob.get(`/calls/${ids.bob}`);
      expect(own.status).toBe(200);
      expect(own.text).toContain('Carla Diaz');
      for (const id of [ids.erin, ids.other, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const res = await bob.get(`/calls/${id}`);
        expect(res.status, id).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.text).not.toContain('Dana Buyer');
      }
      const library = await bob.get('/calls');
      expect(library.text).toContain(`/calls/${ids.bob}`);
      expect(library.text).not.toContain(ids.erin);
      expect(library.text).not.toContain(ids.other);
    });

    it('a rep does not see a teammate’s call', async () => {
      const pat = await signedIn('pat@acme.test'); // rep of West, like Bob
      expect((await pat.get(`/calls/${ids.bob}`)).status).toBe(404);
      expect((await pat.get('/calls')).text).not.toContain(ids.bob);
    });

    it('a manager sees their team’s calls only', async () => {
      const mo = await signedIn('mo@acme.test'); // manager of East
      expect((await mo.get(`/calls/${ids.erin}`)).status).toBe(200);
      expect((await mo.get(`/calls/${ids.bob}`)).status).toBe(404);
      expect((await mo.get(`/calls/${ids.other}`)).status).toBe(404);
      const library = await mo.get('/calls');
      expect(library.text).toContain(ids.erin);
      expect(library.text).not.toContain(ids.bob);
      // Filtering by another team cannot widen the scope.
      const westId = (
        await t.deps.store.db
          .selectFrom('teams')
          .select('id')
          .where('name', '=', 'West')
          .executeTakeFirstOrThrow()
      ).id;
      expect((await mo.get(`/calls?team=${westId}`)).text).not.toContain(ids.bob);
    });

    it('an admin sees every call of the account, never another account’s', async () => {
      const ada = await signedIn('ada@acme.test');
      expect((await ada.get(`/calls/${ids.bob}`)).status).toBe(200);
      expect((await ada.get(`/calls/${ids.erin}`)).status).toBe(200);
      expect((await ada.get(`/calls/${ids.other}`)).status).toBe(404);
      const library = await ada.get('/calls');
      expect(library.text).toContain(ids.bob);
      expect(library.text).toContain(ids.erin);
      expect(library.text).not.toContain(ids.other);
    });
  });

  describe('library and call page', () => {
    it('filters by status, type, team and rep, and pages by keyset without gaps or repeats', async () => {
      // Sent out of order, two on the same day: the library lists by when each call happened, newest first,
      // ties by id, and each page continues where the last stopped.
      const days = ['2026-11-12', '2026-11-10', '2026-11-14', '2026-11-12', '2026-11-11'];
      const created: { id: string; at: string }[] = [];
      for (const day of days) {
        const body = callBody({ call_type: 'negotiation', occurred_at: `${day}T09:30:00Z` });
        created.push({ id: await createCall(KEYS.full, body), at: day });
      }
      const expected = [...created]
        .sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id))
        .map((c) => c.id);
      const ada = await signedIn('ada@acme.test');
      const seen: string[] = [];
      let path: string | null = '/calls?type=negotiation&per_page=2';
      let pages = 0;
      while (path) {
        const res = await ada.get(path);
        expect(res.status).toBe(200);
        seen.push(...[...res.text.matchAll(/href="\/calls\/([0-9a-f-]{36})"/g)].map((m) => m[1]!));
        const next = /<a href="([^"]+)" rel="next">/.exec(res.text);
        path = next ? next[1]!.replaceAll('&amp;', '&') : null;
        pages++;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(expected);
      const erinId = (
        await t.deps.store.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'erin@acme.test')
          .executeTakeFirstOrThrow()
      ).id;
      const byRep = await ada.get(`/calls?rep=${erinId}`);
      expect(byRep.text).toContain(ids.erin);
      expect(byRep.text).not.toContain(ids.bob);
      const eastId = (
        await t.deps.store.db
          .selectFrom('teams')
          .select('id')
          .where('name', '=', 'East')
          .executeTakeFirstOrThrow()
      ).id;
      const byTeam = await ada.get(`/calls?team=${eastId}`);
      expect(byTeam.text).toContain(ids.erin);
      expect(byTeam.text).not.toContain(ids.bob);
      const failed = await ada.get('/calls?status=failed');
      expect(failed.text).toContain('No calls match these filters.');
    });

    it('renders transcript text as text, never as markup', async () => {
      const id = await createCall(
        KEYS.full,
        callBody({
          participants: [{ role: 'customer', name: '<img src=x onerror=alert(1)>', company: null }],
          transcript: {
            segments: [
              { speaker: 'Carla <b>Diaz</b>', text: 'Hi <script>alert("x")</script> there', start_ms: 0 },
              { speaker: 'Bob Stone', text: 'Tell me about "renewals" & <i>dates</i>?', start_ms: 2000 },
            ],
          },
        }),
      );
      const bob = await signedIn('bob.stone@acme.test');
      const page = await bob.get(`/calls/${id}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<script>alert');
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).not.toContain('<b>Diaz</b>');
      expect(page.text).toContain('&lt;script>alert(&#34;x&#34;)&lt;/script>');
      expect(page.text).toContain('&lt;img src=x onerror=alert(1)>');
      const library = await bob.get('/calls');
      expect(library.text).not.toContain('<img src=x');
    });

    it('shows status, rep turns, speaker source and never the metadata', async () => {
      const id = await createCall(KEYS.full, callBody({ metadata: { crm_secret: 'do-not-show-4711' } }));
      const bob = await signedIn('bob.stone@acme.test');
      const page = await bob.get(`/calls/${id}`);
      expect(page.text).not.toContain('do-not-show-4711');
      expect(page.text).not.toContain('crm_secret');
      expect(page.text).toContain('Queued');
      expect(page.text).toContain('matched by the rep&#39;s name or email');
      const repTurns = [...page.text.matchAll(/<li id="turn-(\d+)" class="turn turn-rep"/g)].map((m) =>
        Number(m[1]),
      );
      expect(repTurns).toEqual([1, 3]); // Bob speaks second and fourth
      expect(page.text).toMatch(/<li id="turn-0" class="turn"/);
    });

    /** A stored criterion result that did not apply, with its reason. */
    const pricingNotApplicable = (rationale: string) => ({
      key: 'pricing',
      title: 'Handles pricing',
      weight: 1,
      score: null,
      na: true,
      evidence: [],
      rationale,
    });

    it('shows the current score, each criterion with N/A and evidence linking to its turn', async () => {
      const id = await createCall(KEYS.full, callBody());
      const db = t.deps.store.db;
      const criteria = [
        {
          key: 'next_steps',
          title: 'Agrees next steps',
          weight: 2,
          score: 1,
          na: false,
          evidence: [
            { turn_index: 3, start_ms: 15000, quote: 'As a next step I will send a calendar invite.' },
          ],
          rationale: 'The rep proposed a concrete next step.',
        },
        pricingNotApplicable(''),
      ];
      // Scored twice: the page shows the current result, not the one it replaced.
      await recordTestResult(db, id, { score: 12 });
      await recordTestResult(db, id, { score: 87, criteria });
      const bob = await signedIn('bob.stone@acme.test');
      const page = await bob.get(`/calls/${id}`);
      expect(page.text).toMatch(/class="score score-big score-high">87</);
      expect(page.text).toContain('Agrees next steps');
      expect(page.text).toContain('>100%<');
      expect(page.text).toMatch(/Handles pricing<\/h3>\s*<span class="score score-na">N\/A/);
      expect(page.text).toMatch(
        /<a href="#turn-3" class="quote"><q>As a next step I will send a calendar invite.<\/q>/,
      );
      const library = await bob.get('/calls');
      const row = new RegExp(`href="/calls/${id}"[\\s\\S]*?<span class="score score-high">87</span>`);
      expect(library.text).toMatch(row);
    });

    it('says why a call was not scored, and for all_criteria_na why each criterion did not apply', async () => {
      const id = await createCall(KEYS.full, callBody());
      const na = pricingNotApplicable('Not applicable: the customer never mentioned price.');
      await recordTestResult(t.deps.store.db, id, {
        score: null,
        skipReason: 'all_criteria_na',
        criteria: [na],
      });
      const page = await (await signedIn('bob.stone@acme.test')).get(`/calls/${id}`);
      expect(page.text).toContain('Not applicable: no criterion of the scorecard applies to this call.');
      expect(page.text).toMatch(/Handles pricing<\/h3>\s*<span class="score score-na">N\/A/);
      expect(page.text).toContain('the customer never mentioned price.');
    });
  });
});

describe('staging and HTTPS behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('sqlite', {
      workspace: webWorkspace(),
      env: { SERVICE_ENV: 'staging', TRUST_PROXY: 'true' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the Staging banner and marks cookies Secure over https', async () => {
    const client = new WebClient(t.baseUrl, { 'x-forwarded-proto': 'https' });
    const login = await client.get('/login');
    expect(login.text).toMatch(/<div class="env-banner"><strong>Staging<\/strong>/);
    const res = await client.post('/login', {
      _csrf: csrfOf(login.text),
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('callscore_session='))!;
    expect(cookie).toMatch(/;\s*Secure/i);
    expect((await client.get('/calls')).text).toContain('Staging');
  });

  it('has no banner in production', async () => {
    const prod = await startApp('sqlite', { workspace: null });
    try {
      const login = await new WebClient(prod.baseUrl).get('/login');
      expect(login.status).toBe(200);
      expect(login.text).not.toContain('env-banner');
    } finally {
      await prod.close();
    }
  });
});
