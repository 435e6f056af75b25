/**
 * 429 from the real per-key limiter (RATE_LIMIT_PER_KEY=3): the client waits Retry-After and succeeds.
 * The limiter's window is a real minute; instead of sleeping it, the client's injected sleep records the wait
 * and moves the process clock (only `Date` is faked; timers and I/O stay real) by that much.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CallscoreApiError, CallscoreClient, type RetryInfo } from '../../packages/client/src/index.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';

let t: TestApp;
beforeAll(async () => {
  // Before startApp, so the limiter reads the faked clock.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  t = await startApp('sqlite', { env: { RATE_LIMIT_PER_KEY: '3' } });
});
afterAll(async () => {
  await t?.close();
  vi.useRealTimers();
});

it('waits Retry-After on a real 429 and then succeeds', async () => {
  const waits: number[] = [];
  const retries: RetryInfo[] = [];
  const c = new CallscoreClient({
    baseUrl: `${t.baseUrl}/v1`,
    apiKey: KEYS.full,
    sleep: async (ms) => {
      waits.push(ms);
      vi.advanceTimersByTime(ms);
    },
    onRetry: (info) => retries.push(info),
  });
  for (let i = 0; i < 3; i++) expect((await c.createCall(callBody() as never)).created).toBe(true);
  expect(waits).toEqual([]);

  const fourth = await c.createCall(callBody() as never);
  expect(fourth.created).toBe(true);
  expect(retries).toHaveLength(1);
  const e = retries[0]!.error as CallscoreApiError;
  expect({ status: e.status, code: e.code }).toEqual({ status: 429, code: 'rate_limited' });
  expect(e.retryAfter).toBeGreaterThanOrEqual(59);
  expect(e.retryAfter).toBeLessThanOrEqual(60);
  expect(waits).toEqual([e.retryAfter! * 1000]);
});

it('gives up after maxRetries when the limit keeps refusing', async () => {
  vi.advanceTimersByTime(61_000); // a fresh window
  const waits: number[] = [];
  // This sleep does not move the clock: every retry meets the same full window.
  const c = new CallscoreClient({
    baseUrl: `${t.baseUrl}/v1`,
    apiKey: KEYS.full,
    maxRetries: 2,
    sleep: async (ms) => void waits.push(ms),
  });
  for (let i = 0; i < 3; i++) await c.createCall(callBody() as never);
  const err = await c.createCall(callBody() as never).then(
    () => null,
    (x: unknown) => x,
  );
  expect(err).toBeInstanceOf(CallscoreApiError);
  expect((err as CallscoreApiError).code).toBe('rate_limited');
  expect((err as CallscoreApiError).attempts).toBe(3);
  expect(waits).toHaveLength(2);
});
