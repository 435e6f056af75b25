/**
 * What the client tests share: the real server (startApp('sqlite') over the test workspace) with the real
 * fault-injecting proxy (packages/client/test/helpers/fault-proxy.ts) in front of it, and clients whose waits
 * are recorded instead of slept. Call `useServerAndProxy()` once at the top of a test file.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  CallscoreClient,
  type CallscoreClientOptions,
  type CreateCallRequest,
  type RequestInfo,
  type RetryInfo,
} from '../../packages/client/src/index.js';
import { startFaultProxy, type FaultProxy } from '../../packages/client/test/helpers/fault-proxy.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';

/** The official base the server builds `Location` and `upload_url` on (startApp's PUBLIC_API_BASE_URL). */
export const OFFICIAL_ORIGIN = 'https://api.callscore.test';

export interface ClientUnderTest {
  c: CallscoreClient;
  /** Every wait the client asked for, in ms (the injected sleep returns at once). */
  sleeps: number[];
  retries: RetryInfo[];
  requests: RequestInfo[];
}

export interface ServerAndProxy {
  readonly t: TestApp;
  readonly proxy: FaultProxy;
  /** A client straight to the server's /v1 (the upload PUT still goes through the proxy). */
  client(extra?: Partial<CallscoreClientOptions>): ClientUnderTest;
  /** A client whose API requests go through the fault proxy. */
  viaProxy(extra?: Partial<CallscoreClientOptions>): ClientUnderTest;
  /** The POST /v1/calls requests the proxy received since the last test. */
  callPosts(): FaultProxy['seen'];
}

/** A valid create-call request of the test workspace (rep Bob Stone), unique per call. */
export const body = (overrides: Record<string, unknown> = {}) =>
  callBody(overrides) as unknown as CreateCallRequest;

/** The rejection of `p` (fails the test when `p` resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

export function useServerAndProxy(): ServerAndProxy {
  let t: TestApp | undefined;
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    t = await startApp('sqlite');
    proxy = await startFaultProxy(t.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });
  // A test that ends early (abort, exhausted retries) must not leave faults for the next one.
  afterEach(() => proxy?.reset());

  const started = () => {
    if (!t || !proxy) throw new Error('useServerAndProxy: the server is not started yet');
    return { t, proxy };
  };

  /**
   * Sends URLs the server built on its official base (the upload URL) to the proxy, which records the
   * request as the client sent it and forwards it to the loopback server.
   */
  const loopbackFetch: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const proxyOrigin = new URL(started().proxy.baseUrl).origin;
    return fetch(
      url.startsWith(OFFICIAL_ORIGIN) ? proxyOrigin + url.slice(OFFICIAL_ORIGIN.length) : url,
      init,
    );
  };

  const make = (baseUrl: string, extra: Partial<CallscoreClientOptions>): ClientUnderTest => {
    const sleeps: number[] = [];
    const retries: RetryInfo[] = [];
    const requests: RequestInfo[] = [];
    const c = new CallscoreClient({
      baseUrl,
      apiKey: KEYS.full,
      fetch: loopbackFetch,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onRetry: (info) => retries.push(info),
      onRequest: (info) => requests.push(info),
      ...extra,
    });
    return { c, sleeps, retries, requests };
  };

  return {
    get t() {
      return started().t;
    },
    get proxy() {
      return started().proxy;
    },
    client: (extra = {}) => make(`${started().t.baseUrl}/v1`, extra),
    viaProxy: (extra = {}) => make(started().proxy.baseUrl, extra),
    callPosts: () => started().proxy.seen.filter((r) => r.method === 'POST' && r.path === '/v1/calls'),
  };
}
