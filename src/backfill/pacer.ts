/**
 * Starts at most `rate` requests per second, evenly spaced (no bursts: after a stall the next start is "now",
 * not a catch-up of the missed slots). A 429/503 Retry-After pushes every later start back as well, so the
 * other requests do not run into the same limit.
 */
import { setTimeout as delay } from 'node:timers/promises';

export class Pacer {
  readonly intervalMs: number;
  readonly #now: () => number;
  #next = 0;

  constructor(ratePerSecond: number, now: () => number = () => performance.now()) {
    if (!(ratePerSecond > 0) || !Number.isFinite(ratePerSecond))
      throw new RangeError('rate must be a positive number');
    this.intervalMs = 1000 / ratePerSecond;
    this.#now = now;
  }

  /** Resolves when the next request may start; rejects with the signal's reason when it aborts. */
  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const now = this.#now();
    const at = Math.max(this.#next, now);
    this.#next = at + this.intervalMs;
    if (at > now) await delay(at - now, undefined, signal ? { signal } : undefined);
  }

  /** No start before `ms` from now. */
  pauseFor(ms: number): void {
    this.#next = Math.max(this.#next, this.#now() + ms);
  }
}
