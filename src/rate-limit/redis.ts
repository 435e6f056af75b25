/**
 * Redis rate limiter (scale-out): the sliding-window log of limiter.ts kept in one Redis list per key, updated by
 * one Lua script so concurrent API processes cannot interleave between "count" and "record". Keys expire one
 * window after their newest hit, so idle keys clean themselves up.
 *
 * Time comes from Redis `TIME` by default: every API process then judges windows against one clock, and a
 * process whose clock is skewed can neither free slots early nor hold them late. (Redis >= 5 replicates script
 * effects, so a non-deterministic TIME before writes is allowed.) `now` can inject the caller's clock instead,
 * which the contract tests use to move time without sleeping.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { assertLimit, WINDOW_MS, windowResult, type RateLimiter } from './limiter.js';

export interface RedisRateLimiterOptions {
  /** `redis://…`; the limiter owns this connection and closes it. */
  url?: string;
  /** An existing client; the caller owns it (close() leaves it open). */
  client?: Redis;
  /** Namespace for this limiter's keys, e.g. `callscore:rl:`. */
  prefix: string;
  /** Clock in ms; omitted → Redis server time (one clock for all processes). */
  now?: () => number;
}

/**
 * KEYS[1] the key's list, newest hit first. ARGV: limit, window ms, now ms ('' → Redis TIME).
 * Returns { allowed (0|1), count in window after this hit, oldest in window, time of this hit }.
 */
const HIT_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local key = KEYS[1]
local newest = tonumber(redis.call('LINDEX', key, 0))
if newest and newest > now then now = newest end
while true do
  local oldest = tonumber(redis.call('LINDEX', key, -1))
  if not oldest or oldest > now - window then break end
  redis.call('RPOP', key)
end
local allowed = 0
if redis.call('LLEN', key) < limit then allowed = 1 end
redis.call('LPUSH', key, string.format('%.0f', now))
redis.call('LTRIM', key, 0, limit - 1)
redis.call('PEXPIRE', key, window)
return { allowed, redis.call('LLEN', key), tonumber(redis.call('LINDEX', key, -1)), now }
`;
const HIT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  if (!options.url === !options.client)
    throw new Error('createRedisRateLimiter needs exactly one of url or client');
  const owned = !options.client;
  // Fail within seconds when Redis is unreachable instead of queueing requests behind reconnect attempts.
  const client =
    options.client ?? new Redis(options.url!, { maxRetriesPerRequest: 2, connectTimeout: 5_000 });
  // Connection errors reach callers through the rejected commands (the API answers 503); without a listener
  // ioredis would also print each reconnect failure.
  if (owned) client.on('error', () => {});

  async function run(key: string, args: string[]): Promise<unknown> {
    try {
      return await client.evalsha(HIT_SHA, 1, key, ...args);
    } catch (error) {
      // The script cache is empty after a Redis restart or SCRIPT FLUSH: send the body once, which caches it.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(HIT_SCRIPT, 1, key, ...args);
    }
  }

  return {
    async hit(key, limitPerMinute) {
      assertLimit(limitPerMinute);
      const at = options.now ? String(Math.floor(options.now())) : '';
      const reply = await run(options.prefix + key, [String(limitPerMinute), String(WINDOW_MS), at]);
      const [allowed, count, oldest, newest] = reply as [number, number, number, number];
      return windowResult({
        allowed: allowed === 1,
        limit: limitPerMinute,
        count,
        oldest,
        newest,
        at: newest,
      });
    },
    async ping() {
      await client.ping();
    },
    async close() {
      if (owned) await client.quit().catch(() => client.disconnect());
    },
  };
}
