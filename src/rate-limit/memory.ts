/**
 * In-process rate limiter (the embedded default): the sliding-window log of limiter.ts, one bounded ring of hit
 * times per key, in a key table bounded by LRU eviction so a flood of spoofed IPs cannot grow it without bound.
 */
import { assertLimit, WINDOW_MS, windowResult, type RateLimiter, type RateLimitResult } from './limiter.js';

export interface MemoryRateLimiter extends RateLimiter {
  /** How many keys the table holds now (never more than maxKeys). */
  size(): number;
}

export interface MemoryRateLimiterOptions {
  /** Upper bound of the key table; the least recently used key is evicted beyond it. */
  maxKeys?: number;
  /** Clock in ms (injectable for tests). */
  now?: () => number;
}

/**
 * The hit times of one key, oldest first, in a ring buffer that grows by doubling up to the limit: most keys (one
 * request from one IP) never need more than a few slots.
 */
class HitLog {
  private buf: number[] = new Array<number>(2);
  private head = 0;
  size = 0;

  front(): number {
    return this.buf[this.head]!;
  }

  back(): number {
    return this.buf[(this.head + this.size - 1) % this.buf.length]!;
  }

  shift(): void {
    this.head = (this.head + 1) % this.buf.length;
    this.size--;
  }

  /** Appends `t`; the caller keeps size below `limit` first, so the buffer never exceeds `limit` slots. */
  push(t: number, limit: number): void {
    if (this.size === this.buf.length) {
      const next = new Array<number>(Math.max(this.size + 1, Math.min(this.buf.length * 2, limit)));
      for (let i = 0; i < this.size; i++) next[i] = this.buf[(this.head + i) % this.buf.length]!;
      this.buf = next;
      this.head = 0;
    }
    this.buf[(this.head + this.size) % this.buf.length] = t;
    this.size++;
  }
}

export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const maxKeys = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1)
    throw new RangeError('maxKeys must be a positive integer');
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used key first.
  const table = new Map<string, HitLog>();

  function hitSync(key: string, limit: number): RateLimitResult {
    assertLimit(limit);
    let log = table.get(key);
    if (log) {
      table.delete(key);
    } else {
      log = new HitLog();
      if (table.size >= maxKeys) table.delete(table.keys().next().value!);
    }
    table.set(key, log);

    // Never step back in time within a key (a clock adjustment), so the log stays sorted.
    const at = log.size > 0 ? Math.max(now(), log.back()) : now();
    while (log.size > 0 && log.front() <= at - WINDOW_MS) log.shift();
    const allowed = log.size < limit;
    while (log.size >= limit) log.shift(); // keep the N most recent hits, refused ones included
    log.push(at, limit);
    return windowResult({ allowed, limit, count: log.size, oldest: log.front(), newest: at, at });
  }

  return {
    async hit(key, limitPerMinute) {
      return hitSync(key, limitPerMinute);
    },
    size() {
      return table.size;
    },
    async ping() {},
    async close() {
      table.clear();
    },
  };
}
