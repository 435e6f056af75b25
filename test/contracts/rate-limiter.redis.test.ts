import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisRateLimiter } from '../../src/rate-limit/redis.js';
import { rateLimiterContract } from './rate-limiter.contract.js';

const url = process.env.TEST_REDIS_URL || undefined;
if (!url) console.warn('Redis rate-limiter suites skipped: set TEST_REDIS_URL=redis://… to run them.');

/** One namespace per run so parallel runs on a shared Redis never see each other's keys. */
const runPrefix = `callscore:test:rl:${randomUUID()}:`;

describe.skipIf(!url)('redis rate limiter', () => {
  // Each limiter gets its own prefix, so tests reusing a key name start from an empty window.
  rateLimiterContract('redis (injected clock)', async (now) =>
    createRedisRateLimiter({ url: url!, prefix: `${runPrefix}${randomUUID()}:`, now }),
  );

  describe('with Redis server time', () => {
    let admin: Redis;
    beforeAll(() => {
      admin = new Redis(url!);
    });
    afterAll(async () => {
      // Keys expire by themselves within a minute; removing them now just leaves the shared Redis tidy.
      let cursor = '0';
      do {
        const [next, keys] = await admin.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await admin.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await admin.quit();
    });

    it('refuses the N+1st hit of a burst, judged on the server clock', async () => {
      const prefix = `${runPrefix}time:`;
      const limiter = createRedisRateLimiter({ url: url!, prefix });
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await limiter.hit('burst', 3));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
      expect(results[3]!.retryAfter).toBeGreaterThanOrEqual(1);
      expect(results[3]!.retryAfter).toBeLessThanOrEqual(60);
      // The key expires by itself one window after its newest hit.
      const ttl = await admin.pttl(`${prefix}burst`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await limiter.close();
    });

    it('is shared by every process using the same prefix', async () => {
      const prefix = `${runPrefix}shared:`;
      const a = createRedisRateLimiter({ url: url!, prefix });
      const client = new Redis(url!);
      const b = createRedisRateLimiter({ client, prefix });
      expect((await a.hit('key', 2)).allowed).toBe(true);
      expect((await b.hit('key', 2)).allowed).toBe(true);
      expect((await a.hit('key', 2)).allowed).toBe(false);
      expect((await b.hit('key', 2)).allowed).toBe(false);
      await a.close();
      await b.close();
      // close() leaves a client it was given open for its owner.
      expect(await client.ping()).toBe('PONG');
      await client.quit();
    });
  });
});
