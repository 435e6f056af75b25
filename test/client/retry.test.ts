/**
 * The client's retry rules and timeouts against the real server, with faults injected by the real HTTP proxy in
 * front of it. The injected sleep records each wait instead of sleeping it, except in the one test that proves the
 * default sleep waits. The basic cases (one 500, 503 Retry-After, a safe replay, four 500s, a dropped connection,
 * 422 and 401 thrown at once) are in client.test.ts; a real 429 from the limiter is in rate-limit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  CallscoreApiError,
  CallscoreClient,
  CallscoreNetworkError,
} from '../../packages/client/src/index.js';
import { KEYS } from '../helpers/workspace.js';
import { body, rejection, useServerAndProxy } from './harness.js';

const h = useServerAndProxy();
const { viaProxy, callPosts } = h;

describe('retry rules', () => {
  it('keeps an unknown error code as is and does not retry it', async () => {
    const { c, sleeps } = viaProxy();
    h.proxy.inject({ status: 422, code: 'transcript_language_unsupported' });
    const e = await rejection(c.createCall(body()));
    expect(e).toBeInstanceOf(CallscoreApiError);
    expect(e).toMatchObject({ status: 422, code: 'transcript_language_unsupported', attempts: 1 });
    expect(sleeps).toEqual([]);
    expect(callPosts()).toHaveLength(1);
  });

  it('caps a huge Retry-After at 60 s and backs off when a 503 has none', async () => {
    const { c, sleeps } = viaProxy();
    h.proxy.inject(
      { status: 429, code: 'rate_limited', headers: { 'Retry-After': '3600' } },
      { status: 503, code: 'inference_unavailable' },
    );
    expect((await c.createCall(body())).created).toBe(true);
    // 3600 s is capped to 60 s; the 503 without Retry-After backs off like a 500 (second retry: 4 s).
    expect(sleeps).toEqual([60_000, 4000]);
    expect(callPosts().map((r) => r.fault)).toEqual([true, true, false]);
  });

  it('honours maxRetries, per client and per call', async () => {
    const { c, sleeps } = viaProxy({ maxRetries: 1 });
    h.proxy.inject({ status: 500 }, { status: 500 });
    await expect(c.createCall(body())).rejects.toMatchObject({ status: 500, attempts: 2 });
    expect(sleeps).toEqual([2000]);

    h.proxy.inject({ status: 500 });
    await expect(c.createCall(body(), { maxRetries: 0 })).rejects.toMatchObject({ status: 500, attempts: 1 });
    expect(sleeps).toEqual([2000]);
    expect(callPosts().map((r) => r.fault)).toEqual([true, true, true]);
  });

  it('scales the back-off from retryBaseDelayMs; a 502 HTML page backs off like a 500', async () => {
    const { c, sleeps } = viaProxy({ retryBaseDelayMs: 100 });
    h.proxy.inject({ status: 500 }, { status: 502, body: '<html>Bad gateway</html>' });
    expect((await c.createCall(body())).created).toBe(true);
    expect(sleeps).toEqual([100, 200]);
  });

  it('the default sleep really waits between attempts', async () => {
    // No injected sleep: the built-in timer runs, with a tiny base delay.
    const c = new CallscoreClient({ baseUrl: h.proxy.baseUrl, apiKey: KEYS.full, retryBaseDelayMs: 20 });
    h.proxy.inject({ status: 500 });
    const started = performance.now();
    expect((await c.createCall(body())).created).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    expect(callPosts().map((r) => r.fault)).toEqual([true, false]);
  });

  it('exposes retryAfter and the X-Request-Id when retries run out on 429', async () => {
    const { c } = viaProxy({ maxRetries: 0 });
    h.proxy.inject({ status: 429, code: 'rate_limited', headers: { 'Retry-After': '12' } });
    const e = (await rejection(c.getCall('00000000-0000-4000-8000-000000000000'))) as CallscoreApiError;
    expect({ status: e.status, code: e.code, attempts: e.attempts, retryAfter: e.retryAfter }).toEqual({
      status: 429,
      code: 'rate_limited',
      attempts: 1,
      retryAfter: 12,
    });
    expect(e.requestId).toMatch(/^req_fault_\d+$/);
  });

  it('persistent network errors end in CallscoreNetworkError', async () => {
    const { c, sleeps } = viaProxy({ maxRetries: 2 });
    h.proxy.inject({ kind: 'reset' }, { kind: 'reset' }, { kind: 'reset' });
    const e = await rejection(c.createCall(body()));
    expect(e).toBeInstanceOf(CallscoreNetworkError);
    expect(e).toMatchObject({ timedOut: false, attempts: 3 });
    expect(sleeps).toEqual([2000, 4000]);
    expect(callPosts()).toHaveLength(3);
  });

  it("the caller's abort signal stops retrying and is thrown as is", async () => {
    const controller = new AbortController();
    const { c } = viaProxy({
      // Abort while the client waits between attempts, as a shutting-down backfill would.
      sleep: async (_ms, signal) => {
        controller.abort(new Error('shutting down'));
        signal?.throwIfAborted();
      },
    });
    h.proxy.inject({ status: 500 }, { status: 500 });
    await expect(c.createCall(body(), { signal: controller.signal })).rejects.toThrow('shutting down');
    expect(callPosts()).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('createCall runs under a 60 s timeout by default; other endpoints under 30 s, the upload under 10 min', async () => {
    const { c, requests } = h.client();
    const created = await c.createCall(body());
    await c.getCall(created.id);
    const upload = await c.createRecording({ content_type: 'audio/mpeg', size_bytes: 3 });
    await c.uploadRecording(upload, Buffer.from('abc'));
    expect(c.settings).toMatchObject({
      createCallTimeoutMs: 60_000,
      timeoutMs: 30_000,
      uploadTimeoutMs: 600_000,
    });
    expect(requests.map((r) => [r.operation, r.timeoutMs])).toEqual([
      ['createCall', 60_000],
      ['getCall', 30_000],
      ['createRecording', 30_000],
      ['uploadRecording', 600_000],
    ]);
  });

  it('timeouts are configurable per client and per call', async () => {
    const { c, requests } = h.client({ createCallTimeoutMs: 90_000, timeoutMs: 10_000 });
    const created = await c.createCall(body());
    await c.getCall(created.id);
    await c.getCall(created.id, { timeoutMs: 5000 });
    expect(requests.map((r) => r.timeoutMs)).toEqual([90_000, 10_000, 5000]);
  });

  it('an expired timeout aborts the request and is retried with back-off', async () => {
    // A short timeout against a proxy that never answers proves the configured value is the one applied.
    const { c, sleeps } = viaProxy({ createCallTimeoutMs: 150, maxRetries: 1 });
    h.proxy.inject({ kind: 'hang' }, { kind: 'hang' });
    const started = Date.now();
    const e = await rejection(c.createCall(body()));
    expect(e).toBeInstanceOf(CallscoreNetworkError);
    expect(e).toMatchObject({ timedOut: true, attempts: 2 });
    expect(sleeps).toEqual([2000]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
