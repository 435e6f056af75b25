/**
 * What the client decides without a server: base URL checks, settings, Retry-After parsing, and a refused
 * connection. Every behaviour that needs the API (endpoints, retry rules, timeouts, uploads) is tested against
 * the real server, with the fault-injecting proxy (helpers/fault-proxy.ts) in front of it, in test/client/ at
 * the repository root.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { CallscoreClient, CallscoreNetworkError, parseRetryAfter } from '../src/index.js';

describe('CallscoreClient options', () => {
  it('normalises a trailing slash and rejects a base URL without /v1', () => {
    expect(new CallscoreClient({ baseUrl: 'https://api.example.com/v1/', apiKey: 'k' }).baseUrl).toBe(
      'https://api.example.com/v1',
    );
    expect(() => new CallscoreClient({ baseUrl: 'https://api.example.com', apiKey: 'k' })).toThrow(
      /end in \/v1/,
    );
    expect(() => new CallscoreClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'k' })).toThrow(
      TypeError,
    );
  });

  it('defaults: 4 retries from 2 s, 60 s for createCall, 30 s for the rest, 10 min for the upload', () => {
    const c = new CallscoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k' });
    expect(c.settings).toEqual({
      maxRetries: 4,
      retryBaseDelayMs: 2000,
      maxRetryAfterSeconds: 60,
      createCallTimeoutMs: 60_000,
      timeoutMs: 30_000,
      uploadTimeoutMs: 600_000,
    });
  });
});

it('a refused connection is a CallscoreNetworkError', async () => {
  // A port that was just listening and is closed now: nothing answers there.
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const c = new CallscoreClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k', maxRetries: 0 });
  const err = await c.getCall('x').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CallscoreNetworkError);
  expect(err).toMatchObject({ timedOut: false, attempts: 1 });
});

describe('parseRetryAfter', () => {
  it('reads integer seconds and HTTP dates, and rejects junk', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    // Not seconds and not a date: unreadable (the client then backs off), never "retry now".
    expect(parseRetryAfter('1.5')).toBeNull();
    expect(parseRetryAfter('-1')).toBeNull();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5);
  });
});
