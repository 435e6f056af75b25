/**
 * The web application in a real Chromium (playwright-core driving Debian's /usr/bin/chromium), SQLite only:
 * sign in through the form, see the library, open a call created through the API, see its transcript with
 * the rep's turns marked and its evidence linking to turns. axe-core checks each page; screenshots go to
 * docs/screenshots/ with UPDATE_SCREENSHOTS=1.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, seriousViolations, SCREENSHOTS } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { recordTestResult } from '../helpers/results.js';
import { callBody } from '../helpers/workspace.js';
import { PASSWORD, webWorkspace } from './web-client.js';

describe.skipIf(!HAS_CHROMIUM)('web application in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let callId = '';
  const cspErrors: string[] = [];

  beforeAll(async () => {
    t = await startApp('sqlite', { workspace: webWorkspace() });
    const created = await t.api('POST', '/v1/calls', {
      body: callBody({ participants: [{ role: 'customer', name: 'Carla Diaz', company: 'Globex' }] }),
    });
    expect(created.status).toBe(202);
    callId = created.body.id;
    expect(created.body.app_url).toBe(`https://app.callscore.test/calls/${callId}`);
    // A scored result as the scoring worker writes it, so the page shows scores and evidence too.
    const criteria = [
      {
        key: 'discovery_questions',
        title: 'Asks discovery questions',
        weight: 1,
        score: 1,
        na: false,
        evidence: [
          {
            turn_index: 1,
            start_ms: 4000,
            quote: 'Could you walk me through how your team handles renewals today?',
          },
        ],
        rationale: 'The rep asked 2 questions (needs 1).',
      },
      {
        key: 'next_steps',
        title: 'Agrees next steps',
        weight: 2,
        score: 0.5,
        na: false,
        evidence: [
          { turn_index: 3, start_ms: 15000, quote: 'As a next step I will send a calendar invite.' },
        ],
        rationale: 'A next step was proposed but no date was agreed.',
      },
      {
        key: 'pricing',
        title: 'Handles pricing objections',
        weight: 1,
        score: null,
        na: true,
        evidence: [],
        rationale: 'The customer did not raise price.',
      },
    ];
    await recordTestResult(t.deps.store.db, callId, { score: 66.7, criteria });
    // A second, queued call so the library shows more than one state.
    await t.api('POST', '/v1/calls', {
      body: callBody({
        call_type: 'negotiation',
        occurred_at: '2026-11-21T09:30:00Z',
        participants: [{ role: 'customer', name: 'Dana Buyer', company: 'Initech' }],
      }),
    });

    browser = await launchChromium();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'signs in through the form, lists the call, and shows its transcript with the rep marked',
    { timeout: 90_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
          cspErrors.push(message.text());
      });

      // Anonymous: the call's app_url leads to the sign-in page, which then returns to the call.
      await page.goto(`${t.baseUrl}/calls`);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/calls');
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Sign in to Callscore');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'login.png'), fullPage: true });

      // Keyboard only: the email field has focus, Tab reaches the password, Enter submits.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
      await page.keyboard.type('bob.stone@acme.test');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${t.baseUrl}/calls`);

      // The first Tab on a page reaches the skip link, which moves focus to the main content.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(
        'Skip to main content',
      );
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

      // Library: the user's calls, newest first, with score and status.
      const rows = page.locator('table.calls tbody tr');
      expect(await rows.count()).toBe(2);
      const scoredRow = rows.filter({ has: page.getByRole('link', { name: 'Carla Diaz' }) });
      expect(await scoredRow.locator('.score').textContent()).toBe('67');
      expect(await scoredRow.locator('.status').textContent()).toBe('Scored');
      expect(await page.locator('.site-header .who').textContent()).toContain('Bob Stone');
      expect(await seriousViolations(page)).toEqual([]);
      // (docs/screenshots/library.png comes from flows.browser.test.ts, with the filters and search applied.)

      // Filters are plain GET forms.
      await page.getByLabel('Status').selectOption('queued');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/status=queued/);
      expect(await page.locator('table.calls tbody tr').count()).toBe(1);
      await page.getByRole('link', { name: 'Clear filters' }).click();
      await page.waitForURL(`${t.baseUrl}/calls`);

      // Call page.
      await page.getByRole('link', { name: 'Carla Diaz' }).click();
      await page.waitForURL(`${t.baseUrl}/calls/${callId}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Carla Diaz');
      const repTurns = page.locator('ol.transcript li.turn-rep');
      expect(await repTurns.count()).toBe(2);
      for (const speaker of await repTurns.locator('.speaker').allTextContents())
        expect(speaker).toBe('Bob Stone');
      expect(await repTurns.locator('.badge').allTextContents()).toEqual(['Rep', 'Rep']);
      expect(await page.locator('ol.transcript li.turn:not(.turn-rep) .badge').count()).toBe(0);
      expect(await page.locator('.summary').textContent()).toContain("matched by the rep's name or email");
      expect(await page.locator('.call-score .score-big').textContent()).toBe('67');
      expect(
        await page
          .locator('.criterion')
          .filter({ hasText: 'Handles pricing objections' })
          .locator('.score')
          .textContent(),
      ).toBe('N/A');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'call.png'), fullPage: true });

      // An evidence quote jumps to its turn.
      const quote = page.getByRole('link', { name: /As a next step I will send a calendar invite/ });
      // A real mouse click at the quote (Playwright's locator.click() misses same-page fragment links here).
      const box = (await quote.boundingBox())!;
      await page.mouse.click(box.x + 20, box.y + box.height / 2);
      await expect.poll(() => page.url()).toBe(`${t.baseUrl}/calls/${callId}#turn-3`);
      expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('turn-3');
      expect(await page.locator('#turn-3').getAttribute('class')).toContain('turn-rep');

      // Sign out through the header form (POST with CSRF) and land on the sign-in page.
      await page.getByRole('button', { name: 'Sign out' }).click();
      // (getByLabel/getByRole also prove the form's accessible names.)
      await page.waitForURL(`${t.baseUrl}/login`);
      await page.goto(`${t.baseUrl}/calls/${callId}`);
      expect(new URL(page.url()).pathname).toBe('/login');

      expect(cspErrors).toEqual([]);
      await context.close();
    },
  );
});
