import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../helpers/databases.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';

const UNKNOWN_ID = '/v1/calls/00000000-0000-4000-8000-000000000000';

describe('rate limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('allows the per-key limit across all endpoints, then answers 429 with an integer Retry-After', async () => {
    t = await startApp('sqlite', { env: { RATE_LIMIT_PER_KEY: '4' } });
    const first = await t.api('GET', UNKNOWN_ID);
    expect(first.headers.get('ratelimit-limit')).toBe('4');
    expect(first.headers.get('ratelimit-remaining')).toBe('3');
    expect(first.headers.get('ratelimit-policy')).toBe('4;w=60');
    expect((await t.api('POST', '/v1/calls', { body: callBody() })).status).toBe(202);
    expect(
      (await t.api('POST', '/v1/recordings', { body: { content_type: 'audio/mpeg', size_bytes: 5 } })).status,
    ).toBe(201);
    expect((await t.api('GET', UNKNOWN_ID)).status).toBe(404);
    const limited = await t.api('GET', UNKNOWN_ID);
    expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited']);
    expect(limited.body.error.request_id).toBe(limited.headers.get('x-request-id'));
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Another key has its own budget; the API contract document is never limited.
    expect((await t.api('GET', UNKNOWN_ID, { key: KEYS.readOnly })).status).toBe(404);
    expect((await t.api('GET', '/v1/openapi.json', { key: null })).status).toBe(200);
  });

  it('counts refused requests too, and limits before validating the body', async () => {
    t = await startApp('sqlite', { env: { RATE_LIMIT_PER_KEY: '2' } });
    await t.api('GET', UNKNOWN_ID);
    await t.api('GET', UNKNOWN_ID);
    const invalid = await t.api('POST', '/v1/calls', { body: { nonsense: true } });
    expect(invalid.status).toBe(429);
    expect((await t.api('GET', UNKNOWN_ID)).status).toBe(429);
  });

  it('limits missing, malformed, unknown and revoked keys per client IP, then 429 beats 401', async () => {
    t = await startApp('sqlite', { env: { RATE_LIMIT_PER_IP: '3' } });
    expect((await t.api('GET', UNKNOWN_ID, { key: null })).status).toBe(401);
    expect((await t.api('GET', UNKNOWN_ID, { key: KEYS.unknown })).status).toBe(401);
    expect((await t.api('GET', UNKNOWN_ID, { key: KEYS.revoked })).status).toBe(401);
    const limited = await t.api('GET', UNKNOWN_ID, { key: null, headers: { authorization: 'Bearer nope' } });
    expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A valid key is not held back by the IP's failures.
    expect((await t.api('GET', UNKNOWN_ID)).status).toBe(404);
  });

  it('believes X-Forwarded-For only from TRUST_PROXY', async () => {
    t = await startApp('sqlite', { env: { RATE_LIMIT_PER_IP: '1', TRUST_PROXY: '127.0.0.1' } });
    const from = (ip: string) => t!.api('GET', UNKNOWN_ID, { key: null, headers: { 'x-forwarded-for': ip } });
    expect((await from('203.0.113.7')).status).toBe(401);
    expect((await from('203.0.113.7')).status).toBe(429);
    expect((await from('198.51.100.9')).status).toBe(401);
    await t.close();

    t = await startApp('sqlite', { env: { RATE_LIMIT_PER_IP: '1' } });
    expect((await from('203.0.113.7')).status).toBe(401);
    // Without TRUST_PROXY the header is ignored: both requests come from 127.0.0.1.
    expect((await from('198.51.100.9')).status).toBe(429);
  });

  describe.skipIf(!TEST_REDIS_URL)('with REDIS_URL', () => {
    it('shares one budget between two API processes', async () => {
      const env = {
        RATE_LIMIT_PER_IP: '2',
        REDIS_URL: TEST_REDIS_URL!,
        REDIS_KEY_PREFIX: `test:${randomUUID()}:`,
      };
      t = await startApp('sqlite', { env });
      const second = await startApp('sqlite', { env });
      try {
        // Both processes see the same client IP (127.0.0.1), so their per-IP counters are one in Redis.
        expect((await t.api('GET', UNKNOWN_ID, { key: null })).status).toBe(401);
        expect((await second.api('GET', UNKNOWN_ID, { key: null })).status).toBe(401);
        const limited = await t.api('GET', UNKNOWN_ID, { key: null });
        expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited']);
        expect((await second.api('GET', UNKNOWN_ID, { key: null })).status).toBe(429);
        expect((await t.api('GET', '/readyz', { key: null })).status).toBe(200);
      } finally {
        await second.close();
      }
    });
  });

  it('answers 503 service_unavailable when Redis cannot be reached, never letting requests through unlimited', async () => {
    t = await startApp('sqlite', { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    const res = await t.api('GET', UNKNOWN_ID);
    expect([res.status, res.body.error.code]).toEqual([503, 'service_unavailable']);
    expect(res.headers.get('retry-after')).toBe('5');
    // Not ready either: a load balancer must not send traffic that can only fail.
    const ready = await t.api('GET', '/readyz', { key: null });
    expect(ready.status).toBe(503);
  });
});
