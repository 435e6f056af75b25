/**
 * `callscore backfill` as a real child process (through tsx) against the real server: SIGINT, resume without
 * duplicates, environment variables, exit codes and usage errors. A pass-through proxy counts the requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKFILL_USAGE } from '../../src/backfill/cli.js';
import { startFaultProxy, type FaultProxy } from '../../packages/client/test/helpers/fault-proxy.js';
import { countRows, startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';
import { readJsonl, removeTempDirs, runCli, tempDir, waitFor, writeJsonl } from './helpers.js';

let t: TestApp;
let proxy: FaultProxy;
beforeAll(async () => {
  t = await startApp('sqlite');
  proxy = await startFaultProxy(t.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
  removeTempDirs();
});
afterEach(() => proxy.reset());

const callPosts = () => proxy.seen.filter((r) => r.method === 'POST' && r.path === '/v1/calls');
const lineCount = (file: string) =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;

describe('callscore backfill (child process)', () => {
  it('SIGINT finishes the request in flight, flushes the journal, exits 130; a rerun resumes with no duplicates', async () => {
    const dir = tempDir();
    const bodies = Array.from({ length: 12 }, () => callBody());
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), bodies);
    const out = path.join(dir, 'results.jsonl');
    const journal = `${out}.journal`;
    const rows = await countRows(t.deps);

    const first = runCli([
      input,
      '--base-url',
      proxy.baseUrl,
      '--api-key',
      KEYS.full,
      '--rate',
      '5',
      '--out',
      out,
    ]);
    await waitFor(() => lineCount(journal) >= 3);
    first.child.kill('SIGINT');
    const stopped = await first.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stdout).toContain('Backfill interrupted');
    expect(stopped.stderr).toContain('Interrupted: finishing the requests in flight');

    const partial = readJsonl(out);
    expect(partial).toHaveLength(12);
    const done = partial.filter((r) => r.error === null);
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(done.length).toBeLessThan(12);
    expect(partial.filter((r) => r.error?.code === 'not_sent')).toHaveLength(12 - done.length);
    // Every request that was sent finished and was journaled: nothing was left half-done.
    expect(callPosts()).toHaveLength(done.length);
    expect(lineCount(journal)).toBe(done.length);
    expect((await countRows(t.deps)).calls).toBe(rows.calls + done.length);

    // The rerun takes the key and base from the environment.
    proxy.reset();
    const second = await runCli([input, '--rate', '50', '--out', out], {
      CALLSCORE_API_KEY: KEYS.full,
      CALLSCORE_BASE_URL: proxy.baseUrl,
    }).done;
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `${12 - done.length} created, 0 already there, 0 failed, ${done.length} done in an earlier run`,
    );
    expect(callPosts()).toHaveLength(12 - done.length);
    const final = readJsonl(out);
    expect(final.map((r) => r.line)).toEqual(bodies.map((_, i) => i + 1));
    expect(final.every((r) => r.error === null && r.created)).toBe(true);
    expect(new Set(final.map((r) => r.id)).size).toBe(12);
    expect(
      final
        .filter((r) => r.error === null)
        .slice(0, done.length)
        .map((r) => r.id),
    ).toEqual(done.map((r) => r.id));
    expect((await countRows(t.deps)).calls).toBe(rows.calls + 12);
  });

  it('exits 1 when a call failed for good, with progress and failures on stderr', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [
      callBody(),
      callBody({ rep: { email: 'gone@acme.test' } }),
    ]);
    const run = await runCli([input, '--base-url', `${t.baseUrl}/v1`, '--api-key', KEYS.full, '--rate', '50'])
      .done;
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/2\/2 100% \| [\d.]+ calls\/s \| ETA 0s \| created 1, existing 0, failed 1/);
    expect(run.stderr).toMatch(
      /line 2 \(call-\w+\): 422 rep_inactive: .*\[rep\.email: .*\(request req_\w+\)/,
    );
    expect(readJsonl(path.join(dir, 'calls.results.jsonl')).map((r) => r.error?.code ?? 'ok')).toEqual([
      'ok',
      'rep_inactive',
    ]);
  });

  it('--dry-run needs no key, sends nothing and exits 1 on an invalid line', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [
      callBody(),
      callBody({ provider: 'bad provider!' }),
    ]);
    const run = await runCli([input, '--dry-run']).done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('line 2');
    expect(run.stderr).toContain('validation_failed');
    expect(run.stdout).toContain('1 valid, 1 invalid. Nothing was sent.');
  });

  it('usage errors exit 2; --help prints the usage and exits 0', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [callBody()]);
    const [help, none, noKey, badRate, unknown, missing] = await Promise.all([
      runCli(['--help']).done,
      runCli([]).done,
      runCli([input, '--base-url', proxy.baseUrl]).done,
      runCli([input, '--base-url', proxy.baseUrl, '--api-key', KEYS.full, '--rate', 'fast']).done,
      runCli([input, '--speed', '3']).done,
      runCli([path.join(dir, 'nope.jsonl'), '--base-url', proxy.baseUrl, '--api-key', KEYS.full]).done,
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout.trim()).toBe(BACKFILL_USAGE);
    expect([none.code, noKey.code, badRate.code, unknown.code, missing.code]).toEqual([2, 2, 2, 2, 2]);
    expect(noKey.stderr).toContain('--api-key (or CALLSCORE_API_KEY) is required');
    expect(badRate.stderr).toContain('--rate must be a positive number');
    expect(unknown.stderr).toContain("Unknown option '--speed'");
    expect(missing.stderr).toContain('No such file or folder');
    expect(callPosts()).toHaveLength(0);
  });
});
