/**
 * The request log holds no secret and no transcript text: not the one-time link tokens in a path, not API keys,
 * passwords or session cookies, not what a call says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { KEYS, callBody } from '../helpers/workspace.js';
import { adminWorkspace, linkOf, signedIn, submit, userByEmail } from './admin.helpers.js';
import { PASSWORD, WebClient, csrfOf } from './web-client.js';

describeEachDialect('request log on %s', (dialect) => {
  let t: TestApp;
  const logs: string[] = [];

  beforeAll(async () => {
    t = await startApp(dialect, { workspace: adminWorkspace(), logs });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every path the log names. */
  const loggedPaths = () => logs.flatMap((line) => JSON.parse(line).req?.path ?? []);

  describe('one-time links', () => {
    it.each([
      ['a password-reset', 'bob.stone@acme.test', 'password-reset'],
      ['an invitation', 'new.rep@acme.test', 'invitations'],
    ])('%s link used in full leaves its token out of the log', async (_kind, email, prefix) => {
      const ada = await signedIn(t, 'ada@acme.test');
      const res =
        prefix === 'invitations'
          ? await submit(ada, '/settings/users/new', '/settings/users', {
              email,
              name: 'New Rep',
              role: 'rep',
            })
          : await submit(
              ada,
              `/settings/users/${(await userByEmail(t, email)).id}`,
              `/settings/users/${(await userByEmail(t, email)).id}/password-reset`,
            );
      const link = linkOf(res.text);
      const token = link.split('/').pop()!;
      const path = new URL(link).pathname;
      const client = new WebClient(t.baseUrl);
      const page = await client.get(path);
      const password = 'a passphrase for the log test';
      const done = await client.post(path, { _csrf: csrfOf(page.text), password, confirm: password });
      expect(done.status).toBe(303);

      expect(loggedPaths()).toContain(`/${prefix}/:token`);
      expect(logs.join('\n')).not.toContain(token);
      expect(logs.join('\n')).not.toContain(password);
    });
  });

  it('names no API key, password, session cookie or transcript text', async () => {
    const words = 'Our zebrafish budget renews in March';
    const body = callBody();
    (body.transcript as { segments: { text: string }[] }).segments[0]!.text = words;
    const created = await t.api('POST', '/v1/calls', { body });
    expect(created.status).toBe(202);
    const client = new WebClient(t.baseUrl);
    expect((await client.signIn('ada@acme.test', PASSWORD)).status).toBe(303);
    expect((await client.get(`/calls/${created.body.id}`)).status).toBe(200);

    const text = logs.join('\n');
    expect(loggedPaths()).toContain(`/calls/${created.body.id}`);
    for (const secret of [KEYS.full, PASSWORD, client.cookies.get('callscore_session')!, words])
      expect(text).not.toContain(secret);
  });
});
