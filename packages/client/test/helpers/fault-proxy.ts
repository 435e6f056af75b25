/**
 * A real HTTP reverse proxy in front of the contract server that answers the next requests
 * with injected faults (429/500/503 envelopes, dropped connections, hangs) and forwards the
 * rest untouched. Tests use it to drive the client's retry rules over real sockets.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { status: number; code?: string; headers?: Record<string, string>; body?: unknown }
  | { kind: 'reset' }
  | { kind: 'hang' };

export interface FaultProxy {
  /** The proxy's API base (ending in /v1). */
  baseUrl: string;
  /** Each request the proxy received, and whether a fault answered it. */
  seen: { method: string; path: string; headers: http.IncomingHttpHeaders; fault: boolean }[];
  /** Queues faults for the next requests, in order. */
  inject(...faults: Fault[]): void;
  /** Drops faults no request consumed, and the request log. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(upstreamOrigin: string): Promise<FaultProxy> {
  const queue: Fault[] = [];
  const seen: FaultProxy['seen'] = [];
  const sockets = new Set<Socket>();
  let faultSeq = 0;

  const server = http.createServer((req, res) => {
    const fault = queue.shift();
    seen.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      fault: fault !== undefined,
    });
    if (fault) {
      req.resume();
      if ('kind' in fault) {
        if (fault.kind === 'reset') req.socket.destroy();
        // 'hang': never answer; the socket is destroyed when the proxy closes.
        return;
      }
      const requestId = `req_fault_${++faultSeq}`;
      const body = fault.body ?? {
        error: {
          code: fault.code ?? 'internal_error',
          message: 'injected by the test proxy',
          request_id: requestId,
        },
      };
      res.writeHead(fault.status, {
        'Content-Type': 'application/json',
        'X-Request-Id': requestId,
        ...fault.headers,
      });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
      return;
    }
    const upstream = http.request(
      new URL(req.url ?? '/', upstreamOrigin),
      { method: req.method, headers: { ...req.headers, host: new URL(upstreamOrigin).host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    inject: (...faults) => queue.push(...faults),
    reset: () => {
      queue.length = 0;
      seen.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
