/**
 * A real HTTP reverse proxy in front of the real server (test/client/) that answers the next requests
 * with injected faults (429/500/503 envelopes, dropped connections, hangs), or forwards a request and
 * rewrites the server's JSON answer (an additive v1 change: unknown fields, unknown enum values), and
 * forwards the rest untouched. Tests use it to drive the client's retry rules over real sockets.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { status: number; code?: string; headers?: Record<string, string>; body?: unknown }
  | { kind: 'reset' }
  | { kind: 'hang' }
  /** Forwards the request, then merges `fields` into the top level of the upstream JSON object answer. */
  | { kind: 'merge'; fields: Record<string, unknown> };

export interface FaultProxy {
  /** The proxy's API base (ending in /v1). */
  baseUrl: string;
  /** Each request the proxy received, and whether an injected fault answered (or rewrote) it. */
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
    if (fault && !('kind' in fault && fault.kind === 'merge')) {
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
    const merge = fault && 'kind' in fault && fault.kind === 'merge' ? fault.fields : undefined;
    const headers = { ...req.headers, host: new URL(upstreamOrigin).host };
    // A rewritten answer is parsed: ask for it uncompressed.
    if (merge) delete headers['accept-encoding'];
    const upstream = http.request(
      new URL(req.url ?? '/', upstreamOrigin),
      { method: req.method, headers },
      (up) => {
        if (!merge) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('error', () => res.destroy());
        up.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let original: unknown;
          try {
            original = JSON.parse(text);
          } catch {
            original = undefined;
          }
          if (typeof original !== 'object' || original === null || Array.isArray(original)) {
            // Loud in the test: the client sees a 502 whose text says why.
            res.writeHead(502, { 'Content-Type': 'text/plain' });
            res.end(
              `merge fault: ${req.method} ${req.url} did not answer a JSON object: ${text.slice(0, 200)}`,
            );
            return;
          }
          const body = Buffer.from(JSON.stringify({ ...original, ...merge }));
          const { 'transfer-encoding': _te, 'content-length': _cl, ...rest } = up.headers;
          res.writeHead(up.statusCode ?? 502, { ...rest, 'content-length': String(body.length) });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    // A client that gives up mid-body (a recording stream that ran short) aborts the upstream request too.
    req.on('error', () => upstream.destroy());
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
