import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/rate-limit/memory.js';
import { rateLimiterContract } from './rate-limiter.contract.js';

rateLimiterContract('memory', async (now) => createMemoryRateLimiter({ now }));

describe('memory rate limiter: bounded key table', () => {
  it('never holds more than maxKeys keys under a flood of distinct keys', async () => {
    const limiter = createMemoryRateLimiter({ maxKeys: 50, now: () => 0 });
    let largest = 0;
    for (let i = 0; i < 1_000; i++) {
      const r = await limiter.hit(`ip:10.0.${i >> 8}.${i & 255}`, 30);
      expect(r.allowed).toBe(true);
      largest = Math.max(largest, limiter.size());
    }
    expect(largest).toBe(50);
    await limiter.close();
    expect(limiter.size()).toBe(0);
  });

  it('evicts the least recently used key, not one still in use', async () => {
    let t = 1_000_000;
    const limiter = createMemoryRateLimiter({ maxKeys: 3, now: () => t });
    for (let i = 0; i < 2; i++) await limiter.hit('busy', 2);
    expect((await limiter.hit('busy', 2)).allowed).toBe(false);
    await limiter.hit('idle', 2);
    await limiter.hit('other', 2);
    t += 1_000;
    expect((await limiter.hit('busy', 2)).allowed).toBe(false); // touch: busy becomes the most recent
    await limiter.hit('newcomer', 2); // evicts idle, the least recently used
    expect(limiter.size()).toBe(3);
    expect((await limiter.hit('busy', 2)).allowed).toBe(false); // busy kept its history
    // idle was evicted, so it starts over with a full window (the price of a bounded table).
    expect((await limiter.hit('idle', 2)).remaining).toBe(1);
  });

  it('keeps at most N hit times per key however hard the key is hammered', async () => {
    let t = 0;
    const limiter = createMemoryRateLimiter({ now: () => t });
    for (let i = 0; i < 10_000; i++) await limiter.hit('flood', 5);
    // Only the N most recent hits matter: one minute after the last of them, a full window is back.
    t += 60_000;
    expect((await limiter.hit('flood', 5)).remaining).toBe(4);
  });
});
