/**
 * runBackfill against the real server (and, where requests must be counted or faults injected, through the
 * client package's real fault-injecting HTTP proxy).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill, type BackfillOptions } from '../../src/backfill/run.js';
import { createDemoWorkspace } from '../../src/seed/demo.js';
import { startFaultProxy, type FaultProxy } from '../../packages/client/test/helpers/fault-proxy.js';
import { countRows, startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';
import { captureStderr, readJsonl, removeTempDirs, tempDir, writeJsonl } from './helpers.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/backfill', import.meta.url));

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

/** A run through the proxy at a fast pace, stderr captured. */
async function backfill(input: string, extra: Partial<BackfillOptions> = {}) {
  const err = captureStderr();
  const report = await runBackfill({
    input,
    baseUrl: proxy.baseUrl,
    apiKey: KEYS.full,
    rate: 50,
    stderr: err.stream,
    ...extra,
  });
  return { report, stderr: err.text() };
}

describe('results file', () => {
  it('has one line per input call: created, existing and failed, with the API error details', async () => {
    const dir = tempDir();
    const existing = callBody();
    const before = await t.api('POST', '/v1/calls', { body: existing });
    expect(before.status).toBe(202);
    const fresh = callBody();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [
      fresh,
      existing,
      '{"external_id": "broken", ',
      '',
      callBody({ external_id: 'nobody-1', rep: { email: 'nobody@acme.test' } }),
      fresh, // the same call twice in one file: sent again, reported as already there
    ]);
    const rows = await countRows(t.deps);

    const { report, stderr } = await backfill(input);

    const out = path.join(dir, 'calls.results.jsonl'); // the default next to the input
    expect(report.outPath).toBe(out);
    const results = readJsonl(out);
    expect(results.map((r) => r.line)).toEqual([1, 2, 3, 5, 6]);
    expect(results[0]).toMatchObject({
      external_id: fresh.external_id,
      status: 'queued',
      created: true,
      error: null,
    });
    expect(results[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(results[1]).toMatchObject({
      external_id: existing.external_id,
      id: before.body.id,
      created: false,
      error: null,
    });
    expect(results[2]).toMatchObject({
      external_id: null,
      id: null,
      status: null,
      error: { code: 'invalid_json', request_id: null },
    });
    expect(results[2]!.error!.message).toContain('not valid JSON');
    expect(results[3]).toMatchObject({
      external_id: 'nobody-1',
      id: null,
      error: { code: 'rep_not_found', fields: [{ field: 'rep.email' }] },
    });
    expect(results[3]!.error!.request_id).toMatch(/\S/);
    expect(results[4]).toMatchObject({ id: results[0]!.id, created: false, error: null });

    expect(report.counts).toMatchObject({ created: 1, existing: 2, failed: 2, notSent: 0 });
    expect(report.exitCode).toBe(1);
    expect(report.summary).toContain('1 created, 2 already there, 2 failed');
    expect(stderr).toContain('line 5 (nobody-1): 422 rep_not_found');
    expect((await countRows(t.deps)).calls).toBe(rows.calls + 1);
    // invalid JSON is never sent; the other four lines are.
    expect(callPosts()).toHaveLength(4);
  });

  it('a rerun sends nothing already finished, reports it from the journal, and the server keeps one call each', async () => {
    const dir = tempDir();
    const bodies = [callBody(), callBody(), callBody()];
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), bodies);
    const out = path.join(dir, 'out.jsonl');
    const first = await backfill(input, { out });
    expect(first.report.exitCode).toBe(0);
    expect(first.report.counts).toMatchObject({ created: 3, failed: 0 });
    const firstResults = readJsonl(out);
    expect(readJsonl(`${out}.journal`)).toHaveLength(3);
    const rows = await countRows(t.deps);

    proxy.reset();
    const second = await backfill(input, { out });
    expect(callPosts()).toHaveLength(0);
    expect(second.report.exitCode).toBe(0);
    expect(second.report.counts).toMatchObject({ created: 0, existing: 0, earlier: 3 });
    expect(second.report.summary).toContain('3 done in an earlier run');
    expect(readJsonl(out)).toEqual(firstResults);

    // Without the journal the API's idempotency still prevents duplicates.
    fs.rmSync(`${out}.journal`);
    proxy.reset();
    const third = await backfill(input, { out });
    expect(callPosts()).toHaveLength(3);
    expect(third.report.counts).toMatchObject({ created: 0, existing: 3 });
    expect(readJsonl(out).map((r) => r.id)).toEqual(firstResults.map((r) => r.id));
    expect(await countRows(t.deps)).toEqual(rows);
  });

  it('a journal recorded against another API base is not used', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [callBody()]);
    const out = path.join(dir, 'out.jsonl');
    await backfill(input, { out });
    proxy.reset();
    const other = await backfill(input, { out, baseUrl: `${t.baseUrl}/v1` }); // same server, another base
    expect(other.report.counts).toMatchObject({ earlier: 0, existing: 1 });
  });

  it('a journal recorded with another API key is not used, and names no key', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [callBody()]);
    const out = path.join(dir, 'out.jsonl');
    await backfill(input, { out });
    expect(fs.readFileSync(`${out}.journal`, 'utf8')).not.toContain(KEYS.full);
    proxy.reset();
    // Another key may be another account, which never got the call: it is sent (this one is read-only: 403).
    const other = await backfill(input, { out, apiKey: KEYS.readOnly });
    expect(other.report.counts).toMatchObject({ earlier: 0, failed: 1 });
    expect(callPosts()).toHaveLength(1);
  });
});

describe('--dry-run', () => {
  it('sends nothing and flags invalid lines with the codes and fields the server answers', async () => {
    const dir = tempDir();
    const invalid: Record<string, unknown>[] = [
      callBody({ nickname: 'x' }),
      callBody({ occurred_at: '2026-11-20T15:04:05+0100' }),
      callBody({ occurred_at: '1999-12-31T23:59:59Z', provider: 'no spaces allowed' }),
      callBody({ external_id: 'nul\u0000id' }),
      callBody({ transcript: { text: 'just some words with no speaker labels at all' } }),
      callBody({ transcript: { segments: [{ speaker: 'A', text: 'hi' }], text: 'A: hi' } }),
      callBody({ rep: { email: 'not-an-email' }, call_type: 'sales' }),
    ];
    delete invalid[6]!.transcript;
    const valid = callBody();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [valid, ...invalid, 'not json', '[1, 2]']);
    const out = path.join(dir, 'dry.jsonl');
    const rows = await countRows(t.deps);

    const { report, stderr } = await backfill(input, { dryRun: true, out });

    expect(callPosts()).toHaveLength(0);
    expect(await countRows(t.deps)).toEqual(rows);
    expect(report.exitCode).toBe(1);
    expect(report.summary).toContain('10 of 10 call(s) checked, 1 valid, 9 invalid. Nothing was sent.');
    expect(fs.existsSync(`${out}.journal`)).toBe(false);
    const results = readJsonl(out);
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({ line: 1, status: 'valid', error: null });
    expect(results[8]).toMatchObject({ line: 9, error: { code: 'invalid_json' } });
    expect(stderr).toContain('line 2');

    const server = [...invalid, [1, 2]];
    for (const [i, body] of server.entries()) {
      const res = await t.api('POST', '/v1/calls', { body });
      const local = results[i === invalid.length ? 9 : i + 1]!.error!;
      const fields = (f: { field: string }[] | undefined) => (f ?? []).map((x) => x.field).sort();
      expect({ i, code: local.code, fields: fields(local.fields) }).toEqual({
        i,
        code: res.body.error.code,
        fields: fields(res.body.error.fields),
      });
    }
    expect(await countRows(t.deps)).toEqual(rows);
  });

  it('writes no results file unless --out is given, and exits 0 when every line is valid', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [callBody(), callBody()]);
    const { report } = await backfill(input, { dryRun: true, baseUrl: undefined, apiKey: undefined });
    expect(report.exitCode).toBe(0);
    expect(report.valid).toBe(2);
    expect(fs.readdirSync(dir)).toEqual(['calls.jsonl']);
  });
});

describe('a folder of transcript files with a manifest', () => {
  it('converts .vtt, .srt and .txt files and reports file problems per line', async () => {
    const dir = tempDir();
    const rep = { email: 'bob.stone@acme.test', name: 'Bob Stone' };
    fs.writeFileSync(
      path.join(dir, 'a.vtt'),
      'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Carla Diaz>Hi Bob, thanks for calling.</v>\n\n00:00:04.000 --> 00:00:09.000\n<v Bob Stone>How do you handle renewals today? As a next step I will send an invite.</v>\n',
    );
    fs.writeFileSync(
      path.join(dir, 'b.srt'),
      '1\n00:00:00,000 --> 00:00:03,000\nBob Stone: What slows your team down?\n\n2\n00:00:03,000 --> 00:00:06,500\nDana Fox: Manual data entry.\n',
    );
    fs.writeFileSync(
      path.join(dir, 'c.txt'),
      '[00:00] Eve Moss\nWe need a quote.\n\n[00:05] Bob Stone\nI will send one today as a next step.\n',
    );
    fs.writeFileSync(path.join(dir, 'unlabeled.txt'), 'just words, nobody named\n');
    const plain =
      'Jordan Lee (VP of Operations, Northwind Inc.): We need a quote.\nBob Stone: I will send one today as a next step.\n';
    fs.writeFileSync(path.join(dir, 'd.txt'), plain);
    const line = (n: number, file: string, extra: Record<string, unknown> = {}) => ({
      external_id: `manifest-${Math.random().toString(36).slice(2)}-${n}`,
      provider: 'zoom',
      occurred_at: '2026-11-20T15:04:05Z',
      call_type: 'discovery',
      rep,
      transcript_file: file,
      ...extra,
    });
    writeJsonl(path.join(dir, 'manifest.jsonl'), [
      line(1, 'a.vtt'),
      line(2, 'b.srt'),
      line(3, 'c.txt', { transcript: { rep_speaker: 'Bob Stone' } }),
      line(4, 'missing.vtt'),
      line(5, 'unlabeled.txt'),
      line(6, 'a.vtt', { transcript: { text: 'Bob Stone: hi' } }),
      line(7, 'd.txt', { transcript: { rep_speaker: 'Bob Stone' } }),
    ]);

    const { report } = await backfill(dir);

    const results = readJsonl(path.join(dir, 'results.jsonl'));
    expect(results.map((r) => [r.line, r.created, r.error?.code ?? null])).toEqual([
      [1, true, null],
      [2, true, null],
      [3, true, null],
      [4, false, 'transcript_file_not_found'],
      [5, false, 'transcript_unlabeled'],
      [6, false, 'invalid_manifest'],
      [7, true, null],
    ]);
    expect(report.exitCode).toBe(1);
    const third = await t.api('GET', `/v1/calls/${results[2]!.id}`);
    expect(third.body).toMatchObject({
      rep: { email: 'bob.stone@acme.test' },
      attribution: { speaker_source: 'rep_speaker' },
    });
    const first = await t.api('GET', `/v1/calls/${results[0]!.id}`);
    expect(first.body.attribution).toMatchObject({ rep_source: 'rep_email', speaker_source: 'name_match' });
    // A text file is checked with the API's parser (the unlabeled one is refused before sending) and sent as
    // transcript.text: the same transcript as posting the text itself, which therefore finds the call already there.
    expect(callPosts()).toHaveLength(4);
    const again = await t.api('POST', '/v1/calls', {
      body: {
        ...line(8, 'unused'),
        transcript_file: undefined,
        transcript: { text: plain, rep_speaker: 'Bob Stone' },
      },
    });
    expect([again.status, again.body.id]).toEqual([200, results[6]!.id]);
  });

  it('runs examples/backfill against the demo workspace', async () => {
    const demo = await startApp('sqlite', { workspace: null });
    try {
      const { apiKey } = await createDemoWorkspace(demo.deps.store.db);
      const out = path.join(tempDir(), 'results.jsonl');
      const { report } = await backfill(EXAMPLES, { baseUrl: `${demo.baseUrl}/v1`, apiKey, out });
      expect(report.summary).toContain('3 created');
      expect(report.exitCode).toBe(0);
      expect(readJsonl(out).map((r) => r.external_id)).toEqual([
        'example-backfill-0001',
        'example-backfill-0002',
        'example-backfill-0003',
      ]);
    } finally {
      await demo.close();
    }
  });
});

describe('retries and stops', () => {
  it('waits Retry-After on 429, and fails a line for good when 500s exhaust the retries', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [callBody(), callBody()]);
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    proxy.inject(
      { status: 429, code: 'rate_limited', headers: { 'Retry-After': '1' } },
      ...Array.from({ length: 5 }, () => ({ status: 500, code: 'internal_error' })),
    );
    // concurrency 1: line 1 meets the 429 and four 500s (the client's 4 retries are spent); the fifth 500 is line 2's.
    // (The 429 also holds the pacer back for its real Retry-After, 1 s here.)
    const { report, stderr } = await backfill(input, {
      concurrency: 1,
      client: { sleep, retryBaseDelayMs: 10 },
    });
    expect(waits).toEqual([1000, 20, 40, 80, 10]);
    const results = readJsonl(report.outPath!);
    expect(results[0]).toMatchObject({
      id: null,
      error: { code: 'internal_error', request_id: 'req_fault_5' },
    });
    expect(results[1]).toMatchObject({ created: true, error: null });
    expect(report.exitCode).toBe(1);
    expect(stderr).toContain('retrying in 1s after 429 rate_limited');
  });

  it('stops at the first 401 and reports the remaining lines as not sent', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [callBody(), callBody(), callBody()]);
    const { report } = await backfill(input, { apiKey: KEYS.revoked, concurrency: 1 });
    const results = readJsonl(report.outPath!);
    expect(results.map((r) => r.error?.code)).toEqual(['api_key_revoked', 'not_sent', 'not_sent']);
    expect(results[2]!.external_id).toMatch(/^call-/);
    expect(callPosts()).toHaveLength(1);
    expect(report.exitCode).toBe(1);
    expect(report.stoppedBy?.code).toBe('api_key_revoked');
  });

  it('stops gracefully when its signal aborts: in-flight work finishes, the rest is not sent', async () => {
    const dir = tempDir();
    const input = writeJsonl(
      path.join(dir, 'calls.jsonl'),
      Array.from({ length: 6 }, () => callBody()),
    );
    const stop = new AbortController();
    const { report } = await backfill(input, {
      rate: 20,
      signal: stop.signal,
      client: { onRequest: () => (callPosts().length >= 1 ? stop.abort() : undefined) },
    });
    const results = readJsonl(report.outPath!);
    expect(results).toHaveLength(6);
    expect(report.exitCode).toBe(130);
    const sent = results.filter((r) => r.error === null);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThan(6);
    expect(results.filter((r) => r.error?.code === 'not_sent')).toHaveLength(6 - sent.length);
    expect(readJsonl(`${report.outPath}.journal`)).toHaveLength(sent.length);
  });

  it('an interruption cuts a Retry-After wait short: that line is reported interrupted and not journaled', async () => {
    const dir = tempDir();
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), [callBody(), callBody()]);
    proxy.inject({ status: 429, code: 'rate_limited', headers: { 'Retry-After': '30' } });
    const stop = new AbortController();
    const { report } = await backfill(input, {
      concurrency: 1,
      signal: stop.signal,
      client: { onRetry: () => setTimeout(() => stop.abort(), 50) },
    });
    const results = readJsonl(report.outPath!);
    // Had the 30 s wait run out, the retry would have created the call.
    expect(results.map((r) => r.error?.code)).toEqual(['interrupted', 'not_sent']);
    expect(report.exitCode).toBe(130);
    expect(fs.existsSync(`${report.outPath}.journal`)).toBe(false);
  });
});

describe('pacing', () => {
  it('starts calls at the asked rate (within 10%)', async () => {
    await t.api('POST', '/v1/calls', { body: callBody() }); // warm the ingest path
    const dir = tempDir();
    const bodies = Array.from({ length: 10 }, () => callBody());
    const input = writeJsonl(path.join(dir, 'calls.jsonl'), bodies);
    const { report } = await backfill(input, { rate: 5, baseUrl: `${t.baseUrl}/v1` });
    expect(report.counts.created).toBe(10);
    const rows = await t.deps.store.db
      .selectFrom('calls')
      .select(['created_at'])
      .where(
        'external_id',
        'in',
        bodies.map((b) => b.external_id as string),
      )
      .execute();
    const times = rows.map((r) => Date.parse(String(r.created_at))).sort((a, b) => a - b);
    const achieved = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);
    expect(achieved).toBeGreaterThan(4.5);
    expect(achieved).toBeLessThan(5.5);
  });
});
