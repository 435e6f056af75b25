/**
 * Browser tests: Debian's Chromium driven by playwright-core (no browser download), and axe-core checks.
 * Suites skip with a printed reason when /usr/bin/chromium is missing (CI installs it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** README's screenshots are refreshed only on request (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean. */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? path.join(ROOT, 'docs/screenshots')
  : fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-screenshots-'));
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(`Browser suites skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const AXE_SOURCE = HAS_CHROMIUM
  ? fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')
  : '';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the current page. The script is evaluated through the
 * DevTools protocol rather than a <script> tag, so the page's CSP (no inline scripts) stays enforced.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} @ ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
