/**
 * The RateLimiter contract, run against every implementation (STYLE habit 8). `make` receives the clock the
 * suite controls and must build a limiter that reads time from it, so windows pass without sleeping.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rateLimitHeaders, type RateLimiter, type RateLimitResult } from '../../src/rate-limit/limiter.js';

export interface FakeClock {
  now: () => number;
  advance(ms: number): void;
}

function fakeClock(): FakeClock {
  let t = Date.UTC(2030, 0, 1, 12, 0, 0);
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export function rateLimiterContract(name: string, make: (now: () => number) => Promise<RateLimiter>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let limiter: RateLimiter | undefined;
    let clock: FakeClock;

    async function setup(): Promise<RateLimiter> {
      clock = fakeClock();
      limiter = await make(clock.now);
      return limiter;
    }

    async function hits(l: RateLimiter, key: string, n: number, limit: number): Promise<RateLimitResult[]> {
      const results: RateLimitResult[] = [];
      for (let i = 0; i < n; i++) results.push(await l.hit(key, limit));
      return results;
    }

    afterEach(async () => {
      await limiter?.close();
      limiter = undefined;
    });

    it('answers a readiness ping', async () => {
      await expect((await setup()).ping()).resolves.toBeUndefined();
    });

    it('lets a burst of N through, refuses the N+1st with Retry-After in 1..60', async () => {
      const l = await setup();
      const results = await hits(l, 'burst', 6, 5);
      expect(results.slice(0, 5).map((r) => r.allowed)).toEqual([true, true, true, true, true]);
      const refused = results[5]!;
      expect(refused.allowed).toBe(false);
      expect(refused.limit).toBe(5);
      expect(refused.remaining).toBe(0);
      expect(Number.isInteger(refused.retryAfter)).toBe(true);
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfter).toBeLessThanOrEqual(60);
      expect(refused.reset).toBeGreaterThanOrEqual(1);
      expect(refused.reset).toBeLessThanOrEqual(60);
    });

    it('counts remaining down from N-1 to 0', async () => {
      const l = await setup();
      const results = await hits(l, 'remaining', 4, 3);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
      expect(results.slice(0, 2).every((r) => r.retryAfter === 0)).toBe(true);
      expect(results[0]!.reset).toBe(60);
    });

    it('keeps keys independent', async () => {
      const l = await setup();
      await hits(l, 'a', 2, 2);
      expect((await l.hit('a', 2)).allowed).toBe(false);
      const b = await l.hit('b', 2);
      expect(b.allowed).toBe(true);
      expect(b.remaining).toBe(1);
      expect((await l.hit('a', 2)).allowed).toBe(false);
    });

    it('gives capacity back one minute after each hit (a sliding window, not a fixed one)', async () => {
      const l = await setup();
      await l.hit('slide', 2); // t = 0
      clock.advance(30_000);
      await l.hit('slide', 2); // t = 30 s
      clock.advance(29_999);
      const early = await l.hit('slide-probe', 1); // another key: time passes, nothing else changes
      expect(early.allowed).toBe(true);
      clock.advance(1);
      const back = await l.hit('slide', 2); // t = 60 s: only the t = 0 hit has left the window
      expect(back.allowed).toBe(true);
      expect(back.remaining).toBe(0);
      expect(back.retryAfter).toBe(30);
      const again = await l.hit('slide', 2); // a fixed window would have reset both slots at t = 60 s
      expect(again.allowed).toBe(false);
    });

    it('refuses until just before the window passes, and allows at the window', async () => {
      const l = await setup();
      await hits(l, 'edge-1', 3, 3);
      await hits(l, 'edge-2', 3, 3);
      clock.advance(59_999);
      const before = await l.hit('edge-1', 3);
      expect(before.allowed).toBe(false);
      expect(before.retryAfter).toBe(1);
      clock.advance(1);
      const after = await l.hit('edge-2', 3);
      expect(after.allowed).toBe(true);
      expect(after.remaining).toBe(2);
    });

    it('counts refused hits: a client that keeps hammering stays refused', async () => {
      const l = await setup();
      await hits(l, 'hammer', 3, 3); // t = 0, all allowed
      clock.advance(30_000);
      const refused = await hits(l, 'hammer', 3, 3); // t = 30 s, all refused but recorded
      expect(refused.every((r) => !r.allowed)).toBe(true);
      clock.advance(30_000);
      // t = 60 s: the three allowed hits have expired, the three refused ones have not.
      const still = await l.hit('hammer', 3);
      expect(still.allowed).toBe(false);
      expect(still.retryAfter).toBe(30);
      clock.advance(30_000);
      expect((await l.hit('hammer', 3)).allowed).toBe(true);
    });

    it('means what Retry-After says: waiting that long frees a slot', async () => {
      const l = await setup();
      await hits(l, 'honest', 4, 4);
      clock.advance(12_000);
      const refused = await l.hit('honest', 4);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfter).toBe(48);
      clock.advance(refused.retryAfter * 1000 - 1);
      expect((await l.hit('honest', 4)).allowed).toBe(false);
      clock.advance(1);
      expect((await l.hit('honest', 4)).allowed).toBe(true);
    });

    it('lets exactly N of many concurrent hits through', async () => {
      const l = await setup();
      const results = await Promise.all(Array.from({ length: 25 }, () => l.hit('concurrent', 10)));
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
    });

    it('refuses a limit that is not a positive integer', async () => {
      const l = await setup();
      await expect(l.hit('bad', 0)).rejects.toThrow(RangeError);
      await expect(l.hit('bad', 1.5)).rejects.toThrow(RangeError);
    });

    it('produces the IETF draft headers, with Retry-After only on a refusal', async () => {
      const l = await setup();
      const ok = rateLimitHeaders(await l.hit('headers', 2), 2);
      expect(ok).toEqual({
        'RateLimit-Limit': '2',
        'RateLimit-Remaining': '1',
        'RateLimit-Reset': '60',
        'RateLimit-Policy': '2;w=60',
      });
      await l.hit('headers', 2);
      clock.advance(20_000);
      const refused = rateLimitHeaders(await l.hit('headers', 2), 2);
      expect(refused).toEqual({
        'RateLimit-Limit': '2',
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': '60',
        'RateLimit-Policy': '2;w=60',
        'Retry-After': '40',
      });
    });
  });
}
