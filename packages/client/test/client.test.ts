import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CallscoreApiError,
  CallscoreClient,
  type CallscoreClientOptions,
  CallscoreNetworkError,
  type CreateCallRequest,
  parseRetryAfter,
  type RequestInfo,
} from '../src/index.js';
import { type ContractServer, startContractServer } from './helpers/contract-server.js';
import { type FaultProxy, startFaultProxy } from './helpers/fault-proxy.js';

let api: ContractServer;
let proxy: FaultProxy;
let seq = 0;

beforeAll(async () => {
  api = await startContractServer({ extraCallFields: {} });
  proxy = await startFaultProxy(api.origin);
});
afterAll(async () => {
  await proxy.close();
  await api.close();
});
afterEach(() => {
  // A test that ends early (abort, exhausted retries) must not leave faults for the next one.
  proxy.reset();
});

function callBody(overrides: Partial<CreateCallRequest> = {}): CreateCallRequest {
  return {
    external_id: `zoom-${++seq}`,
    provider: 'zoom',
    occurred_at: '2025-03-04T15:30:00+01:00',
    call_type: 'discovery',
    rep: { email: 'ada@acme.test', name: 'Ada Park' },
    transcript: {
      segments: [
        { speaker: 'Ada Park', text: 'Thanks for joining. What prompted the call?', start_ms: 0 },
        { speaker: 'Sam Lee', text: 'Our renewals are slipping.', start_ms: 4200 },
      ],
      rep_speaker: 'Ada Park',
    },
    ...overrides,
  };
}

/** A client through the fault proxy whose waits are recorded instead of slept. */
function client(extra: Partial<CallscoreClientOptions> = {}) {
  const sleeps: number[] = [];
  const requests: RequestInfo[] = [];
  const c = new CallscoreClient({
    baseUrl: proxy.baseUrl,
    apiKey: api.apiKey,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onRequest: (info) => requests.push(info),
    ...extra,
  });
  return { c, sleeps, requests };
}

const callPosts = () => proxy.seen.filter((r) => r.method === 'POST' && r.path === '/v1/calls');

describe('CallscoreClient endpoints', () => {
  it('creates a call (202) and replays it idempotently (200, created: false)', async () => {
    const { c, sleeps } = client({ userAgent: 'acme-sync/2.1' });
    const body = callBody();
    const first = await c.createCall(body);
    expect(first).toMatchObject({ object: 'call', status: 'queued', created: true, provider: 'zoom' });
    expect(first.app_url).toBe(`${api.origin}/calls/${first.id}`);
    const again = await c.createCall(body);
    expect(again).toMatchObject({ id: first.id, created: false });
    expect(sleeps).toEqual([]);

    const sent = callPosts()[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${api.apiKey}`);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['user-agent']).toMatch(
      /^acme-sync\/2\.1 callscore-client-js\/\d+\.\d+\.\d+ node\/v\d+/,
    );
  });

  it('reads a call back with getCall and maps 404 not_found to CallscoreApiError', async () => {
    const { c } = client();
    const created = await c.createCall(callBody());
    const call = await c.getCall(created.id);
    expect(call).toMatchObject({ id: created.id, status: 'queued', skip_reason: null, has_recording: false });
    expect(call.attribution).toEqual({ rep_source: 'rep_email', speaker_source: 'rep_speaker' });

    const err = await c.getCall('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallscoreApiError);
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('fetches the OpenAPI document without an Authorization header', async () => {
    const { c } = client();
    const doc = await c.getOpenApi();
    expect(doc.openapi).toBe('3.1.0');
    const sent = proxy.seen.find((r) => r.path === '/v1/openapi.json')!;
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('tolerates unknown response fields and unknown enum values', async () => {
    // An API that has grown within v1: a new field, a new status, a new attribution value.
    const grown = await startContractServer({
      extraCallFields: {
        status: 'transcribing',
        attribution: { rep_source: 'crm_owner', speaker_source: 'voiceprint', confidence: 0.9 },
        scoring_eta_seconds: 120,
      },
    });
    try {
      const c = new CallscoreClient({ baseUrl: grown.baseUrl, apiKey: grown.apiKey });
      const result = await c.createCall(callBody());
      expect(result.status).toBe('transcribing');
      expect(result.attribution?.rep_source).toBe('crm_owner');
      expect(result['scoring_eta_seconds']).toBe(120);
      const call = await c.getCall(result.id);
      expect(call.attribution?.['confidence']).toBe(0.9);
    } finally {
      await grown.close();
    }
  });

  it('keeps an unknown error code as is and does not retry it', async () => {
    const { c, sleeps } = client();
    proxy.inject({ status: 422, code: 'transcript_language_unsupported' });
    const err = await c.createCall(callBody()).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, code: 'transcript_language_unsupported', attempts: 1 });
    expect(sleeps).toEqual([]);
  });

  it('accepts a base URL with a trailing slash and rejects one without /v1', async () => {
    const { c } = client({ baseUrl: `${proxy.baseUrl}/` });
    expect(c.baseUrl).toBe(proxy.baseUrl);
    expect((await c.createCall(callBody())).created).toBe(true);
    expect(() => new CallscoreClient({ baseUrl: 'https://api.example.com', apiKey: 'k' })).toThrow(
      /end in \/v1/,
    );
    expect(() => new CallscoreClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'k' })).toThrow(
      TypeError,
    );
  });
});

describe('retry rules', () => {
  it('429: waits Retry-After seconds, then retries and succeeds', async () => {
    const { c, sleeps } = client();
    proxy.inject({ status: 429, code: 'rate_limited', headers: { 'Retry-After': '7' } });
    const result = await c.createCall(callBody());
    expect(result.created).toBe(true);
    expect(sleeps).toEqual([7000]);
    expect(callPosts().map((r) => r.fault)).toEqual([true, false]);
  });

  it('503 inference_unavailable: waits Retry-After, then retries', async () => {
    const { c, sleeps } = client();
    proxy.inject({ status: 503, code: 'inference_unavailable', headers: { 'Retry-After': '30' } });
    expect((await c.createCall(callBody())).created).toBe(true);
    expect(sleeps).toEqual([30_000]);
  });

  it('caps a huge Retry-After and falls back to back-off when it is missing', async () => {
    const { c, sleeps } = client();
    proxy.inject(
      { status: 429, code: 'rate_limited', headers: { 'Retry-After': '3600' } },
      { status: 503, code: 'inference_unavailable' },
    );
    await c.createCall(callBody());
    // 3600 s is capped to 60 s; the 503 without Retry-After backs off like a 500 (second retry: 4 s).
    expect(sleeps).toEqual([60_000, 4000]);
  });

  it('500: backs off 2, 4, 8, 16 s, then throws the last error', async () => {
    const retries: [number, number, string][] = [];
    const { c, sleeps } = client({
      onRetry: ({ attempt, delayMs, error }) => retries.push([attempt, delayMs, error.name]),
    });
    proxy.inject(...Array.from({ length: 5 }, () => ({ status: 500, code: 'internal_error' })));
    const err = await c.createCall(callBody()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallscoreApiError);
    expect(err).toMatchObject({ status: 500, code: 'internal_error', attempts: 5 });
    expect(sleeps).toEqual([2000, 4000, 8000, 16_000]);
    expect(callPosts()).toHaveLength(5);
    expect(retries).toEqual([
      [1, 2000, 'CallscoreApiError'],
      [2, 4000, 'CallscoreApiError'],
      [3, 8000, 'CallscoreApiError'],
      [4, 16_000, 'CallscoreApiError'],
    ]);
  });

  it('honours maxRetries, per client and per call', async () => {
    const { c, sleeps } = client({ maxRetries: 1 });
    proxy.inject({ status: 500 }, { status: 500 });
    await expect(c.createCall(callBody())).rejects.toMatchObject({ status: 500, attempts: 2 });
    expect(sleeps).toEqual([2000]);

    proxy.inject({ status: 500 });
    await expect(c.createCall(callBody(), { maxRetries: 0 })).rejects.toMatchObject({ attempts: 1 });
    expect(sleeps).toEqual([2000]);
  });

  it('scales the back-off from retryBaseDelayMs', async () => {
    const { c, sleeps } = client({ retryBaseDelayMs: 100 });
    proxy.inject({ status: 500 }, { status: 502, body: '<html>Bad gateway</html>' });
    expect((await c.createCall(callBody())).created).toBe(true);
    expect(sleeps).toEqual([100, 200]);
  });

  it('the default sleep really waits between attempts', async () => {
    // No injected sleep: the built-in timer runs (with a tiny base delay).
    const c = new CallscoreClient({ baseUrl: proxy.baseUrl, apiKey: api.apiKey, retryBaseDelayMs: 20 });
    proxy.inject({ status: 500 });
    const started = performance.now();
    expect((await c.createCall(callBody())).created).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('422 is not retried; fields and requestId are exposed', async () => {
    const { c, sleeps } = client();
    const err = await c
      .createCall(callBody({ occurred_at: '2025-03-04T15:30:00+0100' }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallscoreApiError);
    const apiErr = err as CallscoreApiError;
    expect(apiErr.status).toBe(422);
    expect(apiErr.code).toBe('validation_failed');
    expect(apiErr.fields.map((f) => f.field)).toEqual(['occurred_at']);
    expect(apiErr.requestId).toMatch(/^req_\d+$/);
    expect(apiErr.retryAfter).toBeNull();
    expect(sleeps).toEqual([]);
    expect(callPosts()).toHaveLength(1);
  });

  it('401 is not retried', async () => {
    const { c, sleeps } = client({ apiKey: 'svc_sk_wrong' });
    await expect(c.createCall(callBody())).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(sleeps).toEqual([]);
  });

  it('exposes retryAfter and the X-Request-Id when retries run out on 429', async () => {
    const { c } = client({ maxRetries: 0 });
    proxy.inject({ status: 429, code: 'rate_limited', headers: { 'Retry-After': '12' } });
    const err = (await c.getCall('x').catch((e: unknown) => e)) as CallscoreApiError;
    expect(err.retryAfter).toBe(12);
    expect(err.requestId).toMatch(/^req_fault_\d+$/);
  });

  it('a dropped connection is retried with back-off', async () => {
    const { c, sleeps } = client();
    proxy.inject({ kind: 'reset' });
    expect((await c.createCall(callBody())).created).toBe(true);
    expect(sleeps).toEqual([2000]);
  });

  it('persistent network errors end in CallscoreNetworkError', async () => {
    const { c, sleeps } = client({ maxRetries: 2 });
    proxy.inject({ kind: 'reset' }, { kind: 'reset' }, { kind: 'reset' });
    const err = await c.createCall(callBody()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallscoreNetworkError);
    expect(err).toMatchObject({ timedOut: false, attempts: 3 });
    expect(sleeps).toEqual([2000, 4000]);
  });

  it('a refused connection is a CallscoreNetworkError', async () => {
    const closed = await startFaultProxy(api.origin);
    const base = closed.baseUrl;
    await closed.close();
    const c = new CallscoreClient({ baseUrl: base, apiKey: 'k', maxRetries: 0 });
    await expect(c.getCall('x')).rejects.toBeInstanceOf(CallscoreNetworkError);
  });

  it("the caller's abort signal stops retrying and is thrown as is", async () => {
    const controller = new AbortController();
    const c = new CallscoreClient({
      baseUrl: proxy.baseUrl,
      apiKey: api.apiKey,
      // Abort while the client waits between attempts, as a shutting-down backfill would.
      sleep: async (_ms, signal) => {
        controller.abort(new Error('shutting down'));
        signal?.throwIfAborted();
      },
    });
    proxy.inject({ status: 500 }, { status: 500 });
    await expect(c.createCall(callBody(), { signal: controller.signal })).rejects.toThrow('shutting down');
    expect(callPosts()).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('createCall runs under a 60 s timeout by default; other endpoints under 30 s', async () => {
    const { c, requests } = client();
    const created = await c.createCall(callBody());
    await c.getCall(created.id);
    await c.createRecording({ content_type: 'audio/mpeg', size_bytes: 10 });
    expect(c.settings.createCallTimeoutMs).toBe(60_000);
    expect(requests.map((r) => [r.operation, r.timeoutMs])).toEqual([
      ['createCall', 60_000],
      ['getCall', 30_000],
      ['createRecording', 30_000],
    ]);
  });

  it('timeouts are configurable per client and per call', async () => {
    const { c, requests } = client({ createCallTimeoutMs: 90_000, timeoutMs: 10_000 });
    const created = await c.createCall(callBody());
    await c.getCall(created.id, { timeoutMs: 5000 });
    expect(requests.map((r) => r.timeoutMs)).toEqual([90_000, 5000]);
  });

  it('an expired timeout aborts the request and is retried with back-off', async () => {
    // A short timeout against a proxy that never answers proves the configured value is the one applied.
    const { c, sleeps } = client({ createCallTimeoutMs: 150, maxRetries: 1 });
    proxy.inject({ kind: 'hang' }, { kind: 'hang' });
    const started = Date.now();
    const err = await c.createCall(callBody()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallscoreNetworkError);
    expect(err).toMatchObject({ timedOut: true, attempts: 2 });
    expect(sleeps).toEqual([2000]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('parseRetryAfter', () => {
  it('reads integer seconds and HTTP dates, and rejects junk', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5);
  });
});
