/**
 * The rate-limiter port: per key (or per IP) N requests per minute, in-process or shared through Redis.
 *
 * Algorithm (both implementations): a sliding-window log bounded by N. Each key keeps the times of its most
 * recent hits, at most N of them, oldest first; times older than one minute fall off the front. A hit is allowed
 * when fewer than N hits remain in the last minute, and is recorded either way (DESIGN 4: 429s count).
 * Why this one rather than GCRA or a two-bucket counter:
 * - it is exact: N requests in a burst pass, the N+1st is refused, and a slot comes back exactly one minute after
 *   the hit that took it, so `Retry-After` is honest (waiting that long really does free a slot);
 * - "every request counts" has a plain meaning: a client that keeps hammering while refused stays refused until
 *   it pauses for up to a minute, never longer (so `Retry-After` <= 60 always holds). GCRA cannot count refused
 *   hits without either ignoring them or building unbounded debt; a two-bucket counter is an estimate;
 * - memory is bounded by N entries per key, and each hit is amortised O(1) (drop expired from the front, push one,
 *   drop one if over N).
 */

/** The window every limit is expressed in. Callers pass "requests per minute". */
export const WINDOW_MS = 60_000;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** Requests still allowed right now (0 after a refusal). */
  remaining: number;
  /** seconds until the window frees a slot (integer >= 1 when !allowed, <= 60; 0 while slots remain) */
  retryAfter: number;
  /** seconds until fully reset (every hit in the window has expired), integer 1..60 after a hit */
  reset: number;
}

export interface RateLimiter {
  /** Counts one request against `key` (every request counts, refused ones too) and says whether it may proceed. */
  hit(key: string, limitPerMinute: number): Promise<RateLimitResult>;
  /** Resolves when the counters' store answers (readiness, and `serve`'s start); rejects otherwise. */
  ping(): Promise<void>;
  /** Releases connections/timers. */
  close(): Promise<void>;
}

/** Throws on a limit that is not a positive integer: a misconfiguration must not silently allow everything. */
export function assertLimit(limitPerMinute: number): void {
  if (!Number.isSafeInteger(limitPerMinute) || limitPerMinute < 1) {
    throw new RangeError(`limitPerMinute must be a positive integer, got ${limitPerMinute}`);
  }
}

/**
 * Shapes a result from the state of one key's window after the hit was recorded: `count` hits within the window,
 * the oldest and newest of them (ms), `at` the time of this hit (ms). Shared so both implementations agree.
 */
export function windowResult(w: {
  allowed: boolean;
  limit: number;
  count: number;
  oldest: number;
  newest: number;
  at: number;
}): RateLimitResult {
  const remaining = Math.max(0, w.limit - w.count);
  const toSeconds = (ms: number) => Math.min(60, Math.max(1, Math.ceil(ms / 1000)));
  return {
    allowed: w.allowed,
    limit: w.limit,
    remaining,
    // A slot frees when the oldest hit in the window leaves it.
    retryAfter: remaining > 0 ? 0 : toSeconds(w.oldest + WINDOW_MS - w.at),
    reset: toSeconds(w.newest + WINDOW_MS - w.at),
  };
}

/**
 * Response headers for a result: the IETF draft fields (draft-ietf-httpapi-ratelimit-headers) plus
 * `Retry-After` on a refusal.
 */
export function rateLimitHeaders(r: RateLimitResult, limitPerMinute: number): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(limitPerMinute),
    'RateLimit-Remaining': String(Math.max(0, r.remaining)),
    'RateLimit-Reset': String(r.reset),
    'RateLimit-Policy': `${limitPerMinute};w=${WINDOW_MS / 1000}`,
  };
  if (!r.allowed) headers['Retry-After'] = String(Math.min(60, Math.max(1, Math.ceil(r.retryAfter))));
  return headers;
}
