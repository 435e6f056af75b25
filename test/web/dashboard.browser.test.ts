/**
 * The dashboard in a real Chromium (SQLite only): reached from the navigation, charts exposed as images with
 * their accessible names, the team filter as a plain GET form, and no serious or critical axe-core violation.
 */
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekBounds } from '../../src/http/web/dashboard/model.js';
import { HAS_CHROMIUM, launchChromium, seriousViolations } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { recordTestResult } from '../helpers/results.js';
import { PASSWORD, webWorkspace } from './web-client.js';

describe.skipIf(!HAS_CHROMIUM)('dashboard in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let eastId = '';

  beforeAll(async () => {
    t = await startApp('sqlite', { workspace: webWorkspace() });
    const db = t.deps.store.db;
    const acme = await db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', 'Acme')
      .executeTakeFirstOrThrow();
    const team = async (name: string) =>
      (
        await db
          .selectFrom('teams')
          .select('id')
          .where('account_id', '=', acme.id)
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    const user = async (email: string) =>
      (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const west = await team('West');
    eastId = await team('East');
    const bob = await user('bob.stone@acme.test');
    const erin = await user('erin@acme.test');
    const bounds = weekBounds(new Date());
    const rows: [string, string, number, number][] = [
      [west, bob, 4, 82],
      [west, bob, 7, 55],
      [west, bob, 9, 91],
      [eastId, erin, 9, 38],
    ];
    for (const [teamId, repId, week, score] of rows) {
      const id = randomUUID();
      const when = new Date(Date.parse(bounds[week]!) + 3600_000).toISOString();
      await db
        .insertInto('calls')
        .values({
          id,
          account_id: acme.id,
          team_id: teamId,
          rep_user_id: repId,
          ingest_rep_user_id: repId,
          provider: null,
          external_id: null,
          fingerprint: randomUUID(),
          status: 'scored',
          skip_reason: null,
          call_type: 'discovery',
          scorecard_id: null,
          title: 'Call',
          rep_speaker: 'Rep',
          speaker_source: null,
          rep_source: null,
          speaker_confidence: null,
          recording_id: null,
          api_key_id: null,
          occurred_at: when,
          created_at: when,
          updated_at: when,
        })
        .execute();
      const criteria = [
        { key: 'questions', title: 'Asks discovery questions', weight: 1, score: score / 100, na: false },
        { key: 'next_steps', title: 'Agrees next steps', weight: 2, score: 1 - score / 100, na: false },
        { key: 'pricing', title: 'Handles pricing objections', weight: 1, score: null, na: true },
      ];
      await recordTestResult(db, id, { score, criteria }, new Date(when));
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'is reached from the navigation, names its charts, filters by team and passes axe',
    { timeout: 90_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const cspErrors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
      });
      await page.goto(`${t.baseUrl}/login`);
      await page.getByLabel('Email').fill('ada@acme.test');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${t.baseUrl}/calls`);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
      await page.waitForURL(`${t.baseUrl}/dashboard`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
      const trend = page.getByRole('img', { name: /^Score trend by week / });
      expect(await trend.count()).toBe(1);
      expect(await trend.getAttribute('aria-labelledby')).toBe('trend-chart-title trend-chart-desc');
      expect(await page.getByRole('img', { name: /^Average score per criterion / }).count()).toBe(1);
      // The chart is drawn (not just present): it has a visible size and one dot per week with scored calls.
      const box = (await trend.boundingBox())!;
      expect(box.width).toBeGreaterThan(300);
      expect(await page.locator('svg.chart circle.chart-dot').count()).toBe(3);
      expect(await page.locator('[data-stat="average"]').textContent()).toBe('67');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('combobox', { name: 'Team' }).selectOption(eastId);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(`${t.baseUrl}/dashboard?team=${eastId}&rep=`);
      expect(await page.locator('[data-stat="calls"]').textContent()).toBe('1');
      expect(await page.locator('[data-stat="average"]').textContent()).toBe('38');
      expect(await page.locator('svg.chart circle.chart-dot').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      expect(cspErrors).toEqual([]);
      await context.close();
    },
  );
});
