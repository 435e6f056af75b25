/**
 * The admin pages in a real Chromium (SQLite only): an admin reaches Settings from the header, invites a user,
 * creates and rotates an API key, and the invitee accepts through the one-time link. axe-core checks every
 * page (no serious or critical violations); the CSP stays enforced (no console CSP errors).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, seriousViolations } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { callBody } from '../helpers/workspace.js';
import { adminWorkspace } from './admin.helpers.js';
import { PASSWORD } from './web-client.js';

describe.skipIf(!HAS_CHROMIUM)('admin pages in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp('sqlite', { workspace: adminWorkspace() });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('invites a user, creates and rotates a key, and the invitee accepts', { timeout: 120_000 }, async () => {
    const cspErrors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const checked: string[] = [];
    const axe = async (name: string) => {
      expect(await seriousViolations(page), name).toEqual([]);
      checked.push(name);
    };

    await page.goto(`${t.baseUrl}/login`);
    await page.getByLabel('Email').fill('ada@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.baseUrl}/calls`);

    // Settings from the header: the users list.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(`${t.baseUrl}/settings/users`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Users');
    await axe('users');

    // Invite.
    await page.getByRole('link', { name: 'Invite user' }).click();
    await page.waitForURL(`${t.baseUrl}/settings/users/new`);
    await axe('invite form');
    await page.getByLabel('Email').fill('ivy@acme.test');
    await page.getByLabel('Name').fill('Ivy Invite');
    await page.getByLabel('Role').selectOption('rep');
    await page.getByRole('checkbox', { name: 'West' }).check();
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Invitation created');
    const link = await page.getByLabel('One-time link').inputValue();
    expect(link).toMatch(/\/invitations\/[A-Za-z0-9_-]{43}$/);
    await axe('invitation link');

    // The invitee's page (user detail) shows the pending state.
    await page.getByRole('link', { name: 'Back to the user' }).click();
    expect(await page.locator('.summary').textContent()).toContain('Invited');
    await axe('user page');

    // Teams and account.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Teams' }).click();
    await page.waitForURL(`${t.baseUrl}/settings/teams`);
    await axe('teams');
    await page.getByRole('link', { name: 'West' }).click();
    await axe('team page');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Account' }).click();
    await page.waitForURL(`${t.baseUrl}/settings/account`);
    await axe('account');

    // Create a key: all scopes checked by default.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${t.baseUrl}/settings/api-keys`);
    await axe('api keys');
    await page.getByRole('link', { name: 'Create API key' }).click();
    await axe('new key form');
    for (const scope of ['calls:write', 'calls:read', 'recordings:write'])
      expect(await page.getByRole('checkbox', { name: scope }).isChecked()).toBe(true);
    await page.getByLabel('Name').fill('Dialer');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API key created');
    const secret = await page.getByLabel('Secret of "Dialer"').inputValue();
    expect(secret).toMatch(/^svc_sk_/);
    await axe('secret');
    expect((await t.api('POST', '/v1/calls', { key: secret, body: callBody() })).status).toBe(202);

    // Rotate with the default grace period of 24 hours.
    await page.getByRole('link', { name: 'View the key' }).click();
    await axe('key page');
    expect(await page.getByLabel('Grace period (hours)').inputValue()).toBe('24');
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API key rotated');
    const rotated = await page.getByLabel('Secret of "Dialer"').inputValue();
    expect(rotated).not.toBe(secret);
    expect((await t.api('POST', '/v1/calls', { key: secret, body: callBody() })).status).toBe(202);
    expect((await t.api('POST', '/v1/calls', { key: rotated, body: callBody() })).status).toBe(202);
    await page.goto(`${t.baseUrl}/settings/api-keys`);
    expect(await page.locator('table tbody tr').filter({ hasText: 'Rotating' }).count()).toBe(1);

    // The invitee accepts in a fresh browser context and lands signed in.
    const invitee = await browser.newContext();
    const welcome = await invitee.newPage();
    await welcome.goto(link.replace('https://app.callscore.test', t.baseUrl));
    expect(await welcome.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome to Callscore');
    expect(await seriousViolations(welcome)).toEqual([]);
    await welcome.getByLabel('New password').fill('ivy has a long password');
    await welcome.getByLabel('Confirm password').fill('ivy has a long password');
    await welcome.getByRole('button', { name: 'Accept invitation' }).click();
    await welcome.waitForURL(`${t.baseUrl}/calls`);
    expect(await welcome.locator('.site-header .who').textContent()).toContain('Ivy Invite');
    expect(await welcome.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await invitee.close();

    expect(checked).toHaveLength(11);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
});
