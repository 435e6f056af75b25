import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Every request gets a fresh id (never the caller's), echoed as X-Request-Id on every reply and logged. */
export const generateRequestId = (): string => `req_${randomUUID().replace(/-/g, '')}`;

export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
}

/** How long a connection answered before its body was read goes on reading (and dropping) it before closing. */
const LINGER_MS = 5_000;

/**
 * An answer sent before the body was read (401 or 413 before parsing, a refused upload) closes the connection:
 * a keep-alive socket with an unread body would otherwise stay busy until the client gives up. The close lingers
 * (as web servers' "lingering close" does): closing with the client's bytes unread makes the kernel reset the
 * connection, and a client still writing its body would lose the answer with it. So after the answer the socket
 * sends its FIN, drops what still arrives, and closes when the client does, or after LINGER_MS.
 */
export function registerCloseOnUnreadBody(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete) return;
    reply.header('Connection', 'close');
    const socket = request.raw.socket as Socket | null;
    // Node ends a `Connection: close` exchange with destroySoon(); on this socket it lingers instead.
    if (socket) socket.destroySoon = () => lingeringClose(socket);
  });
}

function lingeringClose(socket: Socket): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
}

/** Node's parser errors that answer with their own status rather than 400. */
const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'headers_too_large',
    'The request headers are over 16 KB.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    'The request was not received in time.',
  ],
};

/**
 * Fastify's clientErrorHandler: a request Node's HTTP parser refuses (malformed, headers over 16 KB, too slow) never
 * reaches a hook, so its answer is written here, in the error envelope and with an X-Request-Id like every other.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'bad_request',
    'The request is not valid HTTP/1.1.',
  ];
  const id = generateRequestId();
  const body = JSON.stringify({ error: { code, message, request_id: id } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\n\r\n${body}`,
  );
}
