/**
 * End-to-end flows in a real Chromium (SQLite, one browser): playback marks the turn being spoken; an admin
 * creates an API key in the UI and uses it against the API; a manager reassigns a call and re-runs a failed
 * one through the call page's forms; the library with its filters and search passes axe-core. The CSP stays
 * enforced throughout (no console CSP errors).
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, seriousViolations, SCREENSHOTS } from '../helpers/browser.js';
import { createWorker } from '../../src/scoring/worker.js';
import { createRulesScorer } from '../../src/scoring/scorers/rules.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';
import { PASSWORD, webWorkspace } from './web-client.js';

/** A valid mono 8 kHz 16-bit PCM WAV of `seconds` of silence. */
function silentWav(seconds: number): Buffer {
  const rate = 8000;
  const data = rate * 2 * seconds;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(data, 40);
  return wav;
}

describe.skipIf(!HAS_CHROMIUM)('end-to-end flows in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  const ids = { played: '', reassign: '', failed: '' };
  const cspErrors: string[] = [];

  async function createCall(key: string, body: Record<string, unknown>): Promise<string> {
    const res = await t.api('POST', '/v1/calls', { key, body });
    expect(res.status, res.text).toBe(202);
    return res.body.id as string;
  }

  async function signedInPage(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.goto(`${t.baseUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.baseUrl}/calls`);
    return { context, page };
  }

  const userId = async (email: string) =>
    (
      await t.deps.store.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;

  const callRow = (id: string) =>
    t.deps.store.db
      .selectFrom('calls')
      .select(['status', 'rep_user_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** Runs queued scoring jobs (which also index calls for search), as the app's worker thread would. */
  async function runWorkerUntilIdle(): Promise<void> {
    const worker = createWorker({ store: t.deps.store, scorer: createRulesScorer(), config: t.deps.config });
    while (await worker.runOnce()) {
      // next job
    }
  }

  beforeAll(async () => {
    t = await startApp('sqlite', { workspace: webWorkspace() });

    // A 3-second recording uploaded through the API, with turns starting at 0, 1 and 2 seconds.
    const wav = silentWav(3);
    const upload = await t.api('POST', '/v1/recordings', {
      body: { content_type: 'audio/wav', size_bytes: wav.length },
    });
    expect(upload.status, upload.text).toBe(201);
    const put = await fetch(upload.body.upload_url.replace('https://api.callscore.test', t.baseUrl), {
      method: 'PUT',
      headers: upload.body.upload_headers,
      body: new Uint8Array(wav),
    });
    expect(put.status).toBeLessThan(300);
    ids.played = await createCall(
      KEYS.full,
      callBody({
        recording_id: upload.body.recording_id,
        transcript: {
          segments: [
            { speaker: 'Carla Diaz', text: 'Hello there.', start_ms: 0 },
            { speaker: 'Bob Stone', text: 'Thanks for joining, how are renewals going?', start_ms: 1000 },
            { speaker: 'Carla Diaz', text: 'Slowly, to be honest.', start_ms: 2000 },
          ],
        },
      }),
    );

    const eastCall = (words: string) =>
      createCall(
        KEYS.east,
        callBody({
          rep: { email: 'erin@acme.test' },
          transcript: {
            segments: [
              { speaker: 'Dana Buyer', text: `Good morning. ${words}`, start_ms: 0 },
              { speaker: 'Erin East', text: 'Shall we look at your renewals?', start_ms: 3000 },
            ],
          },
        }),
      );
    ids.reassign = await eastCall('Reassign me.');
    ids.failed = await eastCall('This one failed.');
    // Score (and index) everything first, then stage the states the tests start from.
    await runWorkerUntilIdle();
    await t.deps.store.db
      .updateTable('calls')
      .set({ status: 'failed' })
      .where('id', '=', ids.failed)
      .execute();

    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('marks the turn being spoken as the recording plays', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage('bob.stone@acme.test');
    await page.goto(`${t.baseUrl}/calls/${ids.played}`);
    const player = page.locator('#call-player');
    await expect
      .poll(() => player.evaluate((audio: HTMLMediaElement) => audio.readyState), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1);
    expect(await player.evaluate((audio: HTMLMediaElement) => Math.round(audio.duration))).toBe(3);
    const marked = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('ol.transcript [aria-current="true"]')].map((el) => [
          el.id,
          el.classList.contains('turn-playing'),
        ]),
      );
    expect(await marked()).toEqual([]);

    await player.evaluate((audio: HTMLMediaElement) => {
      audio.currentTime = 1.5;
    });
    await expect.poll(marked).toEqual([['turn-1', true]]);

    await player.evaluate((audio: HTMLMediaElement) => {
      audio.currentTime = 2.25;
    });
    await expect.poll(marked).toEqual([['turn-2', true]]);
    expect(await page.locator('#turn-1').getAttribute('class')).not.toContain('turn-playing');

    await player.evaluate((audio: HTMLMediaElement) => {
      audio.currentTime = 0.2;
    });
    await expect.poll(marked).toEqual([['turn-0', true]]);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('lets an admin create an API key in the UI that the API accepts', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage('ada@acme.test');
    await page.goto(`${t.baseUrl}/settings/api-keys`);
    await page.getByRole('link', { name: 'Create API key' }).click();
    await page.getByLabel('Name').fill('Flow dialer');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API key created');
    const secret = await page.getByLabel('Secret of "Flow dialer"').inputValue();
    expect(secret).toMatch(/^svc_sk_/);

    const response = await fetch(`${t.baseUrl}/v1/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        callBody({
          transcript: {
            segments: [
              { speaker: 'Carla Diaz', text: 'We use a flamingo spreadsheet.', start_ms: 0 },
              { speaker: 'Bob Stone', text: 'Tell me more about it.', start_ms: 2000 },
            ],
          },
        }),
      ),
    });
    expect(response.status).toBe(202);
    const created = (await response.json()) as { id: string };
    // The scoring worker indexes calls for search; the test app has none, so run its jobs here.
    await runWorkerUntilIdle();

    // The new call is in the library, found by a word of its transcript.
    await page.goto(`${t.baseUrl}/calls`);
    await page.getByLabel('Search transcripts').fill('flamingo');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/q=flamingo/);
    const links = page.locator('table.calls tbody a');
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute('href')).toBe(`/calls/${created.id}`);
    await context.close();
  });

  it(
    'lets a manager reassign a call and re-run a failed one from the call page',
    { timeout: 60_000 },
    async () => {
      const { context, page } = await signedInPage('mo@acme.test');
      const mia = await userId('multi@acme.test');
      expect((await callRow(ids.reassign)).rep_user_id).toBe(await userId('erin@acme.test'));

      await page.goto(`${t.baseUrl}/calls/${ids.reassign}`);
      const manage = page.getByRole('region', { name: 'Manager actions' });
      await manage.getByLabel('New rep').selectOption({ label: 'Mia Multi (East) — multi@acme.test' });
      await manage.getByRole('button', { name: 'Reassign call' }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Call reassigned');
      expect(await callRow(ids.reassign)).toEqual({ status: 'queued', rep_user_id: mia });
      expect(await page.locator('.summary').textContent()).toContain('Mia Multi');

      await page.goto(`${t.baseUrl}/calls/${ids.failed}`);
      expect((await callRow(ids.failed)).status).toBe('failed');
      await page
        .getByRole('region', { name: 'Manager actions' })
        .getByRole('button', { name: 'Re-run scoring' })
        .click();
      await expect
        .poll(() => page.getByRole('status').first().textContent())
        .toContain('The call is queued for scoring again.');
      expect((await callRow(ids.failed)).status).toBe('queued');
      expect(await page.getByRole('button', { name: 'Re-run scoring' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
  );

  it('shows the library with filters and search, accessibly', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage('ada@acme.test');
    await page.getByLabel('Search transcripts').fill('renewals');
    await page.getByLabel('From').fill('2026-11-01');
    await page.getByLabel('To').fill('2026-11-30');
    await page.getByLabel('Min score').fill('0');
    await page.getByLabel('Max score').fill('100');
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/q=renewals/);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      q: 'renewals',
      from: '2026-11-01',
      to: '2026-11-30',
      min_score: '0',
      max_score: '100',
    });
    // No call is scored yet, so a score bound leaves none; the empty state says the filters match nothing.
    await expect.poll(() => page.locator('p.empty').textContent()).toBe('No calls match these filters.');
    expect(await page.getByLabel('Search transcripts').inputValue()).toBe('renewals');
    expect(await seriousViolations(page)).toEqual([]);

    // Without the score bounds the search finds the calls that mention renewals.
    await page.getByLabel('Min score').fill('');
    await page.getByLabel('Max score').fill('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // (A GET form sends empty fields too; the server ignores them and its links drop them.)
    await page.waitForURL((u) => u.searchParams.get('min_score') === '');
    expect(await page.locator('table.calls tbody tr').count()).toBe(3);
    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csv).toBe('/calls.csv?from=2026-11-01&to=2026-11-30&q=renewals');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'library.png'), fullPage: true });

    expect(cspErrors).toEqual([]);
    await context.close();
  });
});
