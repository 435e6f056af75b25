/**
 * Failed sign-in throttling, in memory: at most 5 failures per (email, IP) and 50 per IP in a sliding
 * 15-minute window. While throttled, even the right password is refused, so guessing cannot continue.
 * Bounded: the oldest keys are evicted first (a Map keeps insertion order). One process's view only; with
 * several API processes each counts on its own, which still bounds guessing per process.
 */
export interface SignInThrottleOptions {
  perEmailAndIp?: number;
  perIp?: number;
  windowMs?: number;
  maxKeys?: number;
  now?: () => number;
}

export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly perEmailAndIp: number;
  private readonly perIp: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: SignInThrottleOptions = {}) {
    this.perEmailAndIp = options.perEmailAndIp ?? 5;
    this.perIp = options.perIp ?? 50;
    this.windowMs = options.windowMs ?? 15 * 60_000;
    this.maxKeys = options.maxKeys ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  private static keys(email: string, ip: string): [string, string] {
    return [`e:${email.trim().toLowerCase()}|${ip}`, `i:${ip}`];
  }

  /** Milliseconds until another attempt is allowed, or 0 when allowed now. */
  retryAfterMs(email: string, ip: string): number {
    const [pair, perIp] = SignInThrottle.keys(email, ip);
    const checks: [number[], number][] = [
      [this.recent(pair), this.perEmailAndIp],
      [this.recent(perIp), this.perIp],
    ];
    let wait = 0;
    for (const [times, limit] of checks) {
      if (times.length >= limit) {
        const oldestCounted = times[times.length - limit]!;
        wait = Math.max(wait, oldestCounted + this.windowMs - this.now());
      }
    }
    return Math.max(0, wait);
  }

  recordFailure(email: string, ip: string): void {
    const now = this.now();
    for (const key of SignInThrottle.keys(email, ip)) {
      const times = this.recent(key);
      times.push(now);
      this.failures.delete(key); // re-insert: most recently used last
      this.failures.set(key, times);
    }
    while (this.failures.size > this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  /** A successful sign-in clears the (email, IP) failures; the per-IP count stays. */
  recordSuccess(email: string, ip: string): void {
    this.failures.delete(SignInThrottle.keys(email, ip)[0]);
  }
}
