/**
 * API keys in the web app (DESIGN 4 "Scopes", "Key rotation"), over real HTTP against the real API: a key
 * created in the UI works at once, its secret is shown once and only its digest stored; rotation keeps the old
 * secret for the chosen grace period; revocation is immediate; a transfer revives a key whose owner left.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { KEYS, callBody } from '../helpers/workspace.js';
import {
  adminWorkspace,
  keyIdOf,
  secretOf,
  signedIn,
  submit,
  submitPairs,
  teamId,
  userByEmail,
} from './admin.helpers.js';
import { csrfOf, type WebClient } from './web-client.js';

describeEachDialect('admin: API keys on %s', (dialect) => {
  let t: TestApp;
  let ada: WebClient;
  let west = '';

  beforeAll(async () => {
    t = await startApp(dialect, { workspace: adminWorkspace() });
    ada = await signedIn(t, 'ada@acme.test');
    west = await teamId(t, 'West');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function createKey(
    name: string,
    scopes: string[] = ['calls:write', 'calls:read', 'recordings:write'],
  ) {
    const res = await submitPairs(ada, '/settings/api-keys/new', '/settings/api-keys', [
      ['name', name],
      ['team', west],
      ...scopes.map((s) => ['scopes', s] as [string, string]),
    ]);
    expect(res.status, res.text).toBe(201);
    return { secret: secretOf(res.text), id: keyIdOf(res.text), page: res.text };
  }

  async function keyRow(id: string) {
    return t.deps.store.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  it('offers all three scopes checked by default and the account’s live teams only', async () => {
    const page = await ada.get('/settings/api-keys/new');
    expect(page.status).toBe(200);
    for (const scope of ['calls:write', 'calls:read', 'recordings:write']) {
      expect(page.text).toMatch(new RegExp(`name="scopes" value="${scope}" checked`));
    }
    expect(page.text).toContain('>West</option>');
    expect(page.text).not.toContain('>Gone</option>'); // deleted
    expect(page.text).not.toContain('>Team</option>'); // another account's
  });

  it('creates a key that works against the API at once; the secret is shown once and only its digest stored', async () => {
    const { secret, id, page } = await createKey('Zoom <integration>');
    expect(secret).toMatch(/^svc_sk_[A-Za-z0-9_-]{43}$/);
    expect(page).toContain('Copy this key now');
    expect(page).toContain('Zoom &lt;integration>'); // escaped

    const res = await t.api('POST', '/v1/calls', { key: secret, body: callBody() });
    expect(res.status, res.text).toBe(202);

    const row = await keyRow(id);
    expect(row.digest).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(row.prefix).toBe(secret.slice(0, 13));
    expect(JSON.parse(row.scopes)).toEqual(['calls:write', 'calls:read', 'recordings:write']);
    expect(row.created_by).toBe((await userByEmail(t, 'ada@acme.test')).id);
    expect(JSON.stringify(await t.deps.store.db.selectFrom('api_keys').selectAll().execute())).not.toContain(
      secret,
    );

    // Never shown again: neither the list nor the key's page carries it, only its prefix.
    for (const path of ['/settings/api-keys', `/settings/api-keys/${id}`]) {
      const again = await ada.get(path);
      expect(again.status).toBe(200);
      expect(again.text).not.toContain(secret);
      expect(again.text).toContain(`${secret.slice(0, 13)}…`);
    }
    const list = await ada.get('/settings/api-keys');
    expect(list.text).toMatch(
      /Zoom &lt;integration>[\s\S]*?West[\s\S]*?calls:write[\s\S]*?Ada Park[\s\S]*?Active/,
    );
  });

  it('a re-posted create form (a reload of the secret page) creates no second key', async () => {
    const form = await ada.get('/settings/api-keys/new');
    const submission = /name="submission" value="([0-9a-f-]{36})"/.exec(form.text)?.[1];
    expect(submission).toBeDefined();
    const fields = {
      _csrf: csrfOf(form.text),
      name: 'Reloaded',
      team: west,
      scopes: 'calls:read',
      submission: submission!,
    };
    const count = async () =>
      (await t.deps.store.db.selectFrom('api_keys').select('id').where('name', '=', 'Reloaded').execute())
        .length;
    const first = await ada.post('/settings/api-keys', fields);
    expect(first.status).toBe(201);
    const again = await ada.post('/settings/api-keys', fields);
    expect([again.status, again.location]).toEqual([303, '/settings/api-keys?done=already_created']);
    expect(again.text).not.toContain('svc_sk_');
    expect(await count()).toBe(1);
    expect((await ada.get(again.location!)).text).toContain('That form was already sent');
  });

  it('narrowed scopes: a read-only key is refused with 403 insufficient_scope on POST /v1/calls', async () => {
    const { secret } = await createKey('Reader', ['calls:read']);
    const write = await t.api('POST', '/v1/calls', { key: secret, body: callBody() });
    expect([write.status, write.body?.error?.code]).toEqual([403, 'insufficient_scope']);
    const created = await t.api('POST', '/v1/calls', { key: KEYS.full, body: callBody() });
    expect(created.status).toBe(202);
    const read = await t.api('GET', `/v1/calls/${created.body.id}`, { key: secret });
    expect(read.status).toBe(200);
  });

  it('refuses a key without a name, without scopes, with an unknown scope or another account’s team', async () => {
    const otherTeam = await teamId(t, 'Team', 'Other');
    const before = Number(
      (
        await t.deps.store.db
          .selectFrom('api_keys')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    for (const pairs of [
      [
        ['name', ''],
        ['team', west],
        ['scopes', 'calls:read'],
      ],
      [
        ['name', 'No scopes'],
        ['team', west],
      ],
      [
        ['name', 'Bad scope'],
        ['team', west],
        ['scopes', 'admin:all'],
      ],
      [
        ['name', 'Foreign team'],
        ['team', otherTeam],
        ['scopes', 'calls:read'],
      ],
    ] as [string, string][][]) {
      const res = await submitPairs(ada, '/settings/api-keys/new', '/settings/api-keys', pairs);
      expect(res.status, JSON.stringify(pairs)).toBe(422);
      expect(res.text).toContain('role="alert"');
      expect(res.text).not.toMatch(/svc_sk_/);
    }
    const after = Number(
      (
        await t.deps.store.db
          .selectFrom('api_keys')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);
  });

  it('rotation: the new secret works, the old one keeps working for the grace period, then answers api_key_revoked', async () => {
    const { secret: oldSecret, id: oldId } = await createKey('Rotating key', ['calls:write', 'calls:read']);
    const started = Date.now();
    const res = await submit(ada, `/settings/api-keys/${oldId}`, `/settings/api-keys/${oldId}/rotate`, {
      grace_hours: '24',
    });
    expect(res.status, res.text).toBe(201);
    const newSecret = secretOf(res.text);
    const newId = keyIdOf(res.text);
    expect(newSecret).not.toBe(oldSecret);
    expect(newId).not.toBe(oldId);
    expect(res.text).toContain('keeps working for 24 hours');

    // Both work during the grace period.
    expect((await t.api('POST', '/v1/calls', { key: oldSecret, body: callBody() })).status).toBe(202);
    expect((await t.api('POST', '/v1/calls', { key: newSecret, body: callBody() })).status).toBe(202);

    const oldRow = await keyRow(oldId);
    const newRow = await keyRow(newId);
    const expires = Date.parse(oldRow.expires_at!);
    expect(expires).toBeGreaterThanOrEqual(started + 24 * 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 1000);
    expect(oldRow.revoked_at).toBeNull();
    // The new key inherits team, scopes and name.
    expect([newRow.team_id, newRow.scopes, newRow.name]).toEqual([
      oldRow.team_id,
      oldRow.scopes,
      oldRow.name,
    ]);
    expect(newRow.expires_at).toBeNull();

    const list = await ada.get('/settings/api-keys');
    expect(list.text).toMatch(/Rotating<\/span><span class="sub">until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);

    // A rotating key cannot be rotated again.
    const again = await submit(ada, `/settings/api-keys/${oldId}`, `/settings/api-keys/${oldId}/rotate`, {
      grace_hours: '1',
    });
    expect(again.status).toBe(422);

    // When the grace period is over the old secret is refused; the new one carries on.
    await t.deps.store.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', oldId)
      .execute();
    const expired = await t.api('POST', '/v1/calls', { key: oldSecret, body: callBody() });
    expect([expired.status, expired.body?.error?.code]).toEqual([401, 'api_key_revoked']);
    expect((await t.api('POST', '/v1/calls', { key: newSecret, body: callBody() })).status).toBe(202);
    expect((await ada.get(`/settings/api-keys/${oldId}`)).text).toContain('Revoked');
  });

  it('rotation with a grace period of 0 stops the old secret at once; invalid periods are refused', async () => {
    const { secret, id } = await createKey('Zero grace');
    for (const grace of ['-1', '721', '1.5', 'abc']) {
      const bad = await submit(ada, `/settings/api-keys/${id}`, `/settings/api-keys/${id}/rotate`, {
        grace_hours: grace,
      });
      expect(bad.status, grace).toBe(422);
      // The value sent stays in the field, marked invalid and tied to the message.
      expect(bad.text).toContain(`value="${grace}"`);
      expect(bad.text).toMatch(/aria-describedby="grace-hint form-errors"\s+aria-invalid="true"/);
    }
    expect((await keyRow(id)).expires_at).toBeNull();
    const res = await submit(ada, `/settings/api-keys/${id}`, `/settings/api-keys/${id}/rotate`, {
      grace_hours: '0',
    });
    expect(res.status).toBe(201);
    const old = await t.api('POST', '/v1/calls', { key: secret, body: callBody() });
    expect([old.status, old.body?.error?.code]).toEqual([401, 'api_key_revoked']);
    expect((await t.api('POST', '/v1/calls', { key: secretOf(res.text), body: callBody() })).status).toBe(
      202,
    );
  });

  it('revocation is immediate: 401 api_key_revoked', async () => {
    const { secret, id } = await createKey('Short-lived');
    expect((await t.api('POST', '/v1/calls', { key: secret, body: callBody() })).status).toBe(202);
    const res = await submit(ada, `/settings/api-keys/${id}`, `/settings/api-keys/${id}/revoke`);
    expect([res.status, res.location]).toEqual([303, `/settings/api-keys/${id}?done=revoked`]);
    const refused = await t.api('POST', '/v1/calls', { key: secret, body: callBody() });
    expect([refused.status, refused.body?.error?.code]).toEqual([401, 'api_key_revoked']);
    expect((await keyRow(id)).revoked_at).not.toBeNull();
    const page = await ada.get(res.location!);
    expect(page.text).toContain('The key was revoked');
    expect(page.text).not.toContain('/rotate"');
  });

  it('transfer to another active admin fixes api_key_owner_inactive; non-admins are refused', async () => {
    const before = await t.api('POST', '/v1/calls', { key: KEYS.ownerInactive, body: callBody() });
    expect([before.status, before.body?.error?.code]).toEqual([401, 'api_key_owner_inactive']);
    const digest = createHash('sha256').update(KEYS.ownerInactive).digest('hex');
    const { id } = await t.deps.store.db
      .selectFrom('api_keys')
      .select('id')
      .where('digest', '=', digest)
      .executeTakeFirstOrThrow();
    const page = await ada.get(`/settings/api-keys/${id}`);
    expect(page.text).toContain('Owner inactive');

    const bob = await userByEmail(t, 'bob.stone@acme.test');
    const refused = await submit(ada, `/settings/api-keys/${id}`, `/settings/api-keys/${id}/transfer`, {
      owner: bob.id,
    });
    expect(refused.status).toBe(422);
    const otherAdmin = await userByEmail(t, 'admin@other.test');
    const foreign = await submit(ada, `/settings/api-keys/${id}`, `/settings/api-keys/${id}/transfer`, {
      owner: otherAdmin.id,
    });
    expect(foreign.status).toBe(422);

    const abe = await userByEmail(t, 'abe@acme.test');
    const res = await submit(ada, `/settings/api-keys/${id}`, `/settings/api-keys/${id}/transfer`, {
      owner: abe.id,
    });
    expect([res.status, res.location]).toEqual([303, `/settings/api-keys/${id}?done=transferred`]);
    expect((await keyRow(id)).created_by).toBe(abe.id);
    const after = await t.api('POST', '/v1/calls', {
      key: KEYS.ownerInactive,
      body: callBody({
        rep: null,
        transcript: {
          segments: [
            { speaker: 'Customer', text: 'Hello there, thanks for calling us today.', start_ms: 0 },
            {
              speaker: 'Abe Admin',
              text: 'Thanks. As a next step I will send the proposal.',
              start_ms: 2000,
            },
          ],
          rep_speaker: 'Abe Admin',
        },
      }),
    });
    expect(after.status, after.text).toBe(202);
    expect(after.body.rep?.email ?? (await t.api('GET', `/v1/calls/${after.body.id}`)).body.rep.email).toBe(
      'abe@acme.test',
    );
  });
});
