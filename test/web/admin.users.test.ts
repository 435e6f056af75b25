/**
 * Users, teams and the account in the web app, over real HTTP: invitations and password resets through
 * one-time links, deactivation ending sessions, role and team changes, soft-deleted teams, and who may reach
 * the admin pages at all (admins only; 404 for managers and reps; CSRF on every form; one account only).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { KEYS, callBody } from '../helpers/workspace.js';
import {
  adminWorkspace,
  keyIdOf,
  linkOf,
  secretOf,
  signedIn,
  submit,
  submitPairs,
  teamId,
  userByEmail,
} from './admin.helpers.js';
import { PASSWORD, WebClient, csrfOf } from './web-client.js';

const NEW_PASSWORD = 'a brand new passphrase';

function segments(rep: string) {
  return [
    { speaker: 'Dana Buyer', text: 'Hello, thanks for calling us today.', start_ms: 0 },
    { speaker: rep, text: 'Could you walk me through how you handle renewals today?', start_ms: 3000 },
  ];
}

describeEachDialect('admin: users, teams and account on %s', (dialect) => {
  let t: TestApp;
  let ada: WebClient;

  beforeAll(async () => {
    t = await startApp(dialect, { workspace: adminWorkspace() });
    ada = await signedIn(t, 'ada@acme.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Follows a one-time link: loads its form and sets the password. */
  async function useLink(link: string, password: string, confirm = password) {
    const path = new URL(link).pathname;
    const client = new WebClient(t.baseUrl);
    const page = await client.get(path);
    if (page.status !== 200) return { client, res: page };
    const res = await client.post(path, { _csrf: csrfOf(page.text), password, confirm });
    return { client, res };
  }

  describe('access', () => {
    const pages = [
      '/settings',
      '/settings/users',
      '/settings/users/new',
      '/settings/teams',
      '/settings/api-keys',
      '/settings/api-keys/new',
      '/settings/account',
    ];

    it('sends anonymous visitors to sign-in', async () => {
      for (const path of pages) {
        const res = await new WebClient(t.baseUrl).get(path);
        expect([res.status, res.location], path).toEqual([303, `/login?next=${encodeURIComponent(path)}`]);
      }
    });

    it('answers 404 to a rep and a manager on every admin page and form, and shows them no Settings link', async () => {
      const bobId = (await userByEmail(t, 'bob.stone@acme.test')).id;
      const westId = await teamId(t, 'West');
      const keyId = (await t.deps.store.db.selectFrom('api_keys').select('id').executeTakeFirstOrThrow()).id;
      const posts = [
        '/settings/users',
        `/settings/users/${bobId}`,
        `/settings/users/${bobId}/deactivate`,
        `/settings/users/${bobId}/reactivate`,
        `/settings/users/${bobId}/invitation`,
        `/settings/users/${bobId}/password-reset`,
        '/settings/teams',
        `/settings/teams/${westId}/rename`,
        `/settings/teams/${westId}/delete`,
        '/settings/api-keys',
        `/settings/api-keys/${keyId}/rotate`,
        `/settings/api-keys/${keyId}/revoke`,
        `/settings/api-keys/${keyId}/transfer`,
        '/settings/account',
      ];
      for (const email of ['bob.stone@acme.test', 'mo@acme.test']) {
        const client = await signedIn(t, email);
        const calls = await client.get('/calls');
        expect(calls.text).not.toContain('href="/settings"');
        const token = csrfOf(calls.text);
        for (const path of [
          ...pages,
          `/settings/users/${bobId}`,
          `/settings/teams/${westId}`,
          `/settings/api-keys/${keyId}`,
        ]) {
          const res = await client.get(path);
          expect(res.status, `${email} GET ${path}`).toBe(404);
          expect(res.text).toContain('Page not found');
        }
        for (const path of posts) {
          const res = await client.post(path, {
            _csrf: token,
            name: 'Hijack',
            role: 'admin',
            grace_hours: '0',
          });
          expect(res.status, `${email} POST ${path}`).toBe(404);
        }
      }
      // Nothing changed.
      expect((await userByEmail(t, 'bob.stone@acme.test')).role).toBe('rep');
      expect((await t.api('POST', '/v1/calls', { key: KEYS.full, body: callBody() })).status).toBe(202);
    });

    it('shows admins the Settings link', async () => {
      const page = await ada.get('/calls');
      expect(page.text).toContain('href="/settings"');
      const settings = await ada.get('/settings');
      expect([settings.status, settings.location]).toEqual([303, '/settings/users']);
    });

    it('refuses admin forms without or with a wrong CSRF token (403) and changes nothing', async () => {
      const bob = await userByEmail(t, 'bob.stone@acme.test');
      for (const form of [{}, { _csrf: 'x'.repeat(43) }] as Record<string, string>[]) {
        const res = await ada.post(`/settings/users/${bob.id}/deactivate`, form);
        expect(res.status).toBe(403);
        expect(res.text).toContain('This form has expired');
        const team = await ada.post('/settings/teams', { ...form, name: 'Forged' });
        expect(team.status).toBe(403);
      }
      expect((await userByEmail(t, 'bob.stone@acme.test')).status).toBe('active');
      const forged = await t.deps.store.db
        .selectFrom('teams')
        .select('id')
        .where('name', '=', 'Forged')
        .execute();
      expect(forged).toEqual([]);
    });

    it('scopes everything to the admin’s account: another account’s ids answer 404', async () => {
      const other = await signedIn(t, 'admin@other.test');
      const bob = await userByEmail(t, 'bob.stone@acme.test');
      const westId = await teamId(t, 'West');
      const digest = createHash('sha256').update(KEYS.full).digest('hex');
      const key = await t.deps.store.db
        .selectFrom('api_keys')
        .select('id')
        .where('digest', '=', digest)
        .executeTakeFirstOrThrow();
      for (const path of [
        `/settings/users/${bob.id}`,
        `/settings/teams/${westId}`,
        `/settings/api-keys/${key.id}`,
      ]) {
        expect((await other.get(path)).status, path).toBe(404);
      }
      const token = csrfOf((await other.get('/settings/users')).text);
      expect((await other.post(`/settings/users/${bob.id}/deactivate`, { _csrf: token })).status).toBe(404);
      expect((await other.post(`/settings/api-keys/${key.id}/revoke`, { _csrf: token })).status).toBe(404);
      expect((await other.post(`/settings/teams/${westId}/delete`, { _csrf: token })).status).toBe(404);
      const list = await other.get('/settings/users');
      expect(list.text).not.toContain('bob.stone@acme.test');
      expect((await other.get('/settings/api-keys')).text).not.toContain('Ada Park');
      expect((await userByEmail(t, 'bob.stone@acme.test')).status).toBe('active');
      expect((await t.api('POST', '/v1/calls', { key: KEYS.full, body: callBody() })).status).toBe(202);
    });
  });

  describe('users', () => {
    it('lists users with role, teams and status, escaping names', async () => {
      const page = await ada.get('/settings/users');
      expect(page.status).toBe(200);
      expect(page.text).toMatch(
        /Bob Stone<\/a><span class="sub">bob\.stone@acme\.test<\/span><\/td><td>Rep<\/td><td>West<\/td>/,
      );
      expect(page.text).toMatch(/Mia Multi[\s\S]*?<td>East, West<\/td>/);
      expect(page.text).toMatch(/Gus Gone[\s\S]*?Deactivated/);
      expect(page.text).toMatch(/Nia New[\s\S]*?Invited/);
    });

    it('invites a user: pending with a one-time link (hash only, 7 days) that sets a password and signs in', async () => {
      const west = await teamId(t, 'West');
      const res = await submitPairs(ada, '/settings/users/new', '/settings/users', [
        ['email', 'Ivy.Invite@acme.test'],
        ['name', 'Ivy <b>Invite</b>'],
        ['role', 'rep'],
        ['teams', west],
      ]);
      expect(res.status, res.text).toBe(201);
      const link = linkOf(res.text);
      expect(link).toMatch(/^https:\/\/app\.callscore\.test\/invitations\/[A-Za-z0-9_-]{43}$/);
      expect(res.text).toContain('Ivy &lt;b>Invite&lt;/b>');
      const token = link.split('/').pop()!;

      const user = await userByEmail(t, 'ivy.invite@acme.test');
      expect([user.status, user.password_hash, user.last_sign_in_at, user.role]).toEqual([
        'pending',
        null,
        null,
        'rep',
      ]);
      const tokens = await t.deps.store.db
        .selectFrom('user_tokens')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.id).toBe(createHash('sha256').update(token).digest('hex'));
      expect(tokens[0]!.purpose).toBe('invitation');
      const ttl = Date.parse(tokens[0]!.expires_at) - Date.parse(tokens[0]!.created_at);
      expect(ttl).toBe(7 * 24 * 3600_000);
      expect(JSON.stringify(tokens)).not.toContain(token);
      // Not yet activated: the API refuses calls for them.
      const early = await t.api('POST', '/v1/calls', {
        body: callBody({
          rep: { email: 'ivy.invite@acme.test' },
          transcript: { segments: segments('Ivy'), rep_speaker: 'Ivy' },
        }),
      });
      expect(early.body?.error?.code).toBe('rep_pending_activation');

      // Mismatched or short passwords are refused; the link stays usable.
      expect((await useLink(link, NEW_PASSWORD, 'something else')).res.status).toBe(422);
      expect((await useLink(link, 'short')).res.status).toBe(422);
      const { client, res: accepted } = await useLink(link, NEW_PASSWORD);
      expect([accepted.status, accepted.location]).toEqual([303, '/calls']);
      expect((await client.get('/calls')).status).toBe(200);

      const active = await userByEmail(t, 'ivy.invite@acme.test');
      expect(active.status).toBe('active');
      expect(active.last_sign_in_at).not.toBeNull();
      // Once only.
      const reused = await useLink(link, NEW_PASSWORD);
      expect(reused.res.status).toBe(404);
      expect(reused.res.text).toContain('This link is not valid');
      // The password works at the sign-in form, and the rep can now receive calls.
      expect((await new WebClient(t.baseUrl).signIn('ivy.invite@acme.test', NEW_PASSWORD)).status).toBe(303);
      const call = await t.api('POST', '/v1/calls', {
        body: callBody({
          rep: { email: 'ivy.invite@acme.test' },
          transcript: { segments: segments('Ivy'), rep_speaker: 'Ivy' },
        }),
      });
      expect(call.status, call.text).toBe(202);
    });

    it('refuses an invitation for an existing email, a bad email, a missing name or a bad role', async () => {
      for (const form of [
        { email: 'BOB.STONE@acme.test', name: 'Bob Again', role: 'rep' },
        { email: 'not-an-email', name: 'X', role: 'rep' },
        { email: 'x1@acme.test', name: '', role: 'rep' },
        { email: 'x2@acme.test', name: 'X', role: 'owner' },
      ]) {
        const res = await submit(ada, '/settings/users/new', '/settings/users', form);
        expect(res.status, form.email).toBe(422);
        expect(res.text).toContain('role="alert"');
      }
      const x = await t.deps.store.db
        .selectFrom('users')
        .select('id')
        .where('email', 'in', ['x1@acme.test', 'x2@acme.test'])
        .execute();
      expect(x).toEqual([]);
    });

    it('an expired or replaced invitation link is not valid', async () => {
      const res = await submit(ada, '/settings/users/new', '/settings/users', {
        email: 'late@acme.test',
        name: 'Lou Late',
        role: 'manager',
      });
      const first = linkOf(res.text);
      const user = await userByEmail(t, 'late@acme.test');
      const again = await submit(ada, `/settings/users/${user.id}`, `/settings/users/${user.id}/invitation`);
      expect(again.status).toBe(201);
      const second = linkOf(again.text);
      expect((await new WebClient(t.baseUrl).get(new URL(first).pathname)).status).toBe(404);
      expect((await new WebClient(t.baseUrl).get(new URL(second).pathname)).status).toBe(200);
      await t.deps.store.db
        .updateTable('user_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', user.id)
        .execute();
      expect((await useLink(second, NEW_PASSWORD)).res.status).toBe(404);
      expect((await userByEmail(t, 'late@acme.test')).status).toBe('pending');
    });

    it('deactivation ends the user’s sessions and the API refuses them; reactivation restores both', async () => {
      const erin = await signedIn(t, 'erin@acme.test');
      const user = await userByEmail(t, 'erin@acme.test');
      const sessions = () =>
        t.deps.store.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
      expect((await sessions()).length).toBeGreaterThan(0);

      const res = await submit(ada, `/settings/users/${user.id}`, `/settings/users/${user.id}/deactivate`);
      expect([res.status, res.location]).toEqual([303, `/settings/users/${user.id}?done=deactivated`]);
      expect(await sessions()).toEqual([]);
      expect((await userByEmail(t, 'erin@acme.test')).status).toBe('inactive');
      expect((await erin.get('/calls')).status).toBe(303);
      expect((await new WebClient(t.baseUrl).signIn('erin@acme.test')).status).toBe(403);
      const refused = await t.api('POST', '/v1/calls', {
        key: KEYS.east,
        body: callBody({ rep: { email: 'erin@acme.test' }, transcript: { segments: segments('Erin East') } }),
      });
      expect(refused.body?.error?.code).toBe('rep_inactive');

      const back = await submit(ada, `/settings/users/${user.id}`, `/settings/users/${user.id}/reactivate`);
      expect(back.status).toBe(303);
      expect((await userByEmail(t, 'erin@acme.test')).status).toBe('active');
      expect((await new WebClient(t.baseUrl).signIn('erin@acme.test')).status).toBe(303);
    });

    it('reactivating a user who never signed in makes them pending again', async () => {
      const gone = await userByEmail(t, 'new@acme.test'); // pending
      await submit(ada, `/settings/users/${gone.id}`, `/settings/users/${gone.id}/deactivate`);
      expect((await userByEmail(t, 'new@acme.test')).status).toBe('inactive');
      await submit(ada, `/settings/users/${gone.id}`, `/settings/users/${gone.id}/reactivate`);
      expect((await userByEmail(t, 'new@acme.test')).status).toBe('pending');
    });

    it('an admin cannot deactivate themselves or change their own role', async () => {
      const me = await userByEmail(t, 'ada@acme.test');
      const res = await submit(ada, `/settings/users/${me.id}`, `/settings/users/${me.id}/deactivate`);
      expect(res.status).toBe(422);
      const west = await teamId(t, 'West');
      const role = await submitPairs(ada, `/settings/users/${me.id}`, `/settings/users/${me.id}`, [
        ['name', 'Ada Park'],
        ['role', 'rep'],
        ['teams', west],
      ]);
      expect(role.status).toBe(303);
      expect(await userByEmail(t, 'ada@acme.test')).toMatchObject({ role: 'admin', status: 'active' });
    });

    it('changes role and team memberships; the change applies at once', async () => {
      const mo = await signedIn(t, 'mo@acme.test');
      expect((await mo.get('/settings/users')).status).toBe(404);
      const user = await userByEmail(t, 'mo@acme.test');
      const west = await teamId(t, 'West');
      const east = await teamId(t, 'East');
      const res = await submitPairs(ada, `/settings/users/${user.id}`, `/settings/users/${user.id}`, [
        ['name', 'Mo Manager'],
        ['role', 'admin'],
        ['teams', west],
        ['teams', east],
      ]);
      expect([res.status, res.location]).toEqual([303, `/settings/users/${user.id}?done=saved`]);
      const teams = await t.deps.store.db
        .selectFrom('team_members')
        .select('team_id')
        .where('user_id', '=', user.id)
        .execute();
      expect(teams.map((r) => r.team_id).sort()).toEqual([west, east].sort());
      expect((await mo.get('/settings/users')).status).toBe(200); // same session, new role

      // Move to one team only, back to manager.
      const back = await submitPairs(ada, `/settings/users/${user.id}`, `/settings/users/${user.id}`, [
        ['name', 'Mo Manager'],
        ['role', 'manager'],
        ['teams', west],
      ]);
      expect(back.status).toBe(303);
      const after = await t.deps.store.db
        .selectFrom('team_members')
        .select('team_id')
        .where('user_id', '=', user.id)
        .execute();
      expect(after.map((r) => r.team_id)).toEqual([west]);
      expect((await mo.get('/settings/users')).status).toBe(404);
      const page = await ada.get(`/settings/users/${user.id}`);
      expect(page.text).toMatch(new RegExp(`value="${west}" checked`));
      expect(page.text).not.toMatch(new RegExp(`value="${east}" checked`));
    });

    it('a rep moved to a second team becomes ambiguous for the API; moved back, calls work again', async () => {
      const bea = await userByEmail(t, 'bare@acme.test');
      const bare = await teamId(t, 'Bare');
      const west = await teamId(t, 'West');
      const body = () =>
        callBody({ rep: { email: 'bare@acme.test' }, transcript: { segments: segments('Bea Bare') } });
      await submitPairs(ada, `/settings/users/${bea.id}`, `/settings/users/${bea.id}`, [
        ['name', 'Bea Bare'],
        ['role', 'rep'],
        ['teams', bare],
        ['teams', west],
      ]);
      expect((await t.api('POST', '/v1/calls', { body: body() })).body?.error?.code).toBe('rep_ambiguous');
      await submitPairs(ada, `/settings/users/${bea.id}`, `/settings/users/${bea.id}`, [
        ['name', 'Bea Bare'],
        ['role', 'rep'],
        ['teams', west],
      ]);
      const ok = await t.api('POST', '/v1/calls', { body: body() });
      expect(ok.status, ok.text).toBe(202);
    });

    it('refuses to demote an admin who owns live API keys', async () => {
      const abe = await userByEmail(t, 'abe@acme.test');
      const abeClient = await signedIn(t, 'abe@acme.test');
      const created = await submitPairs(abeClient, '/settings/api-keys/new', '/settings/api-keys', [
        ['name', 'Abe key'],
        ['team', await teamId(t, 'West')],
        ['scopes', 'calls:write'],
      ]);
      expect(created.status).toBe(201);
      const res = await submit(ada, `/settings/users/${abe.id}`, `/settings/users/${abe.id}`, {
        name: 'Abe Admin',
        role: 'rep',
      });
      expect(res.status).toBe(422);
      expect(res.text).toContain('Transfer it to another admin');
      expect((await userByEmail(t, 'abe@acme.test')).role).toBe('admin');
      expect(keyIdOf(created.text)).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('a password reset link (1 hour) sets a new password and ends the user’s other sessions', async () => {
      const bobSession = await signedIn(t, 'bob.stone@acme.test');
      const bob = await userByEmail(t, 'bob.stone@acme.test');
      const res = await submit(ada, `/settings/users/${bob.id}`, `/settings/users/${bob.id}/password-reset`);
      expect(res.status).toBe(201);
      const link = linkOf(res.text);
      expect(link).toMatch(/^https:\/\/app\.callscore\.test\/password-reset\/[A-Za-z0-9_-]{43}$/);
      const row = await t.deps.store.db
        .selectFrom('user_tokens')
        .selectAll()
        .where('user_id', '=', bob.id)
        .where('purpose', '=', 'password_reset')
        .executeTakeFirstOrThrow();
      expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(3600_000);
      // An invitation link cannot be used as a reset link and vice versa.
      const token = link.split('/').pop()!;
      expect((await new WebClient(t.baseUrl).get(`/invitations/${token}`)).status).toBe(404);

      const { client, res: done } = await useLink(link, NEW_PASSWORD);
      expect([done.status, done.location]).toEqual([303, '/calls']);
      expect((await client.get('/calls')).status).toBe(200);
      expect((await bobSession.get('/calls')).status).toBe(303); // signed out elsewhere
      expect((await new WebClient(t.baseUrl).signIn('bob.stone@acme.test', PASSWORD)).status).toBe(401);
      expect((await new WebClient(t.baseUrl).signIn('bob.stone@acme.test', NEW_PASSWORD)).status).toBe(303);
      expect((await useLink(link, 'yet another passphrase')).res.status).toBe(404);
    });

    it('the link form needs its own CSRF cookie', async () => {
      const res = await submit(ada, '/settings/users/new', '/settings/users', {
        email: 'csrf@acme.test',
        name: 'Cy Csrf',
        role: 'rep',
      });
      const path = new URL(linkOf(res.text)).pathname;
      const stranger = new WebClient(t.baseUrl);
      const page = await new WebClient(t.baseUrl).get(path);
      const forged = await stranger.post(path, {
        _csrf: csrfOf(page.text),
        password: NEW_PASSWORD,
        confirm: NEW_PASSWORD,
      });
      expect(forged.status).toBe(403);
      expect((await userByEmail(t, 'csrf@acme.test')).status).toBe('pending');
    });
  });

  describe('teams', () => {
    it('creates, refuses duplicates, renames and soft-deletes a team; its keys then answer team_not_configured without a rep', async () => {
      const created = await submit(ada, '/settings/teams', '/settings/teams', { name: 'North' });
      expect([created.status, created.location]).toEqual([303, '/settings/teams?done=created']);
      const list = await ada.get(created.location!);
      expect(list.text).toContain('>North</a>');
      expect(list.text).toContain('Team created.');
      for (const name of ['North', 'Gone', '', 'x'.repeat(81)]) {
        const dup = await submit(ada, '/settings/teams', '/settings/teams', { name });
        expect(dup.status, name).toBe(422);
      }
      const north = await teamId(t, 'North');
      const renamed = await submit(ada, `/settings/teams/${north}`, `/settings/teams/${north}/rename`, {
        name: 'North & Co',
      });
      expect(renamed.status).toBe(303);
      expect((await ada.get(`/settings/teams/${north}`)).text).toContain('<h1>North &amp; Co</h1>');
      expect((await ada.get(`/settings/teams/${north}`)).text).toContain('No members yet.');
      // A team's page lists its members, each linking to their user page.
      const west = await teamId(t, 'West');
      const westPage = (await ada.get(`/settings/teams/${west}`)).text;
      const bob = (await userByEmail(t, 'bob.stone@acme.test')).id;
      expect(westPage).toContain(`<a href="/settings/users/${bob}">Bob Stone</a>`);
      expect(westPage).not.toContain('No members yet.');
      const clash = await submit(ada, `/settings/teams/${north}`, `/settings/teams/${north}/rename`, {
        name: 'West',
      });
      expect(clash.status).toBe(422);

      // East has a default scorecard: a key made for it files rep-less calls until the team is deleted.
      const east = await teamId(t, 'East');
      const key = await submitPairs(ada, '/settings/api-keys/new', '/settings/api-keys', [
        ['name', 'East key'],
        ['team', east],
        ['scopes', 'calls:write'],
      ]);
      const secret = secretOf(key.text);
      const repless = () =>
        callBody({ rep: null, transcript: { segments: segments('Ada Park'), rep_speaker: 'Ada Park' } });
      const before = await t.api('POST', '/v1/calls', { key: secret, body: repless() });
      expect(before.status, before.text).toBe(202);

      const deleted = await submit(ada, `/settings/teams/${east}`, `/settings/teams/${east}/delete`);
      expect([deleted.status, deleted.location]).toEqual([303, '/settings/teams?done=deleted']);
      const row = await t.deps.store.db
        .selectFrom('teams')
        .selectAll()
        .where('id', '=', east)
        .executeTakeFirstOrThrow();
      expect(row.deleted_at).not.toBeNull();
      const refused = await t.api('POST', '/v1/calls', { key: secret, body: repless() });
      expect([refused.status, refused.body?.error?.code]).toEqual([422, 'team_not_configured']);
      expect((await ada.get(`/settings/teams/${east}`)).status).toBe(404);
      const after = await ada.get('/settings/teams');
      expect(after.text).toMatch(/Deleted teams[\s\S]*<span>East<\/span>/);
      expect(after.text).toContain('>North &amp; Co</a>');
      expect((await ada.get('/settings/api-keys/new')).text).not.toContain('>East</option>');
      expect((await ada.get('/settings/api-keys')).text).toContain('Team deleted');
    });
  });

  describe('account', () => {
    it('renames the account and shows status and features read-only', async () => {
      const page = await ada.get('/settings/account');
      expect(page.status).toBe(200);
      expect(page.text).toContain('value="Acme"');
      expect(page.text).toContain('Call scoring API');
      expect(page.text).toMatch(/<dt>Status<\/dt><dd>Active<\/dd>/);
      const taken = await submit(ada, '/settings/account', '/settings/account', { name: 'Other' });
      expect(taken.status).toBe(422);
      const empty = await submit(ada, '/settings/account', '/settings/account', { name: '  ' });
      expect(empty.status).toBe(422);
      const res = await submit(ada, '/settings/account', '/settings/account', { name: 'Acme "Corp"' });
      expect([res.status, res.location]).toEqual([303, '/settings/account?done=saved']);
      const after = await ada.get('/settings/account');
      expect(after.text).toContain('value="Acme &#34;Corp&#34;"');
      const row = await t.deps.store.db
        .selectFrom('accounts')
        .select('name')
        .where('name', '=', 'Acme "Corp"')
        .execute();
      expect(row).toHaveLength(1);
      // Status and features cannot be changed from here.
      expect(after.text).not.toMatch(/name="status"|name="features"/);
      await submit(ada, '/settings/account', '/settings/account', { name: 'Acme' });
    });
  });
});
