import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Every request gets a fresh id (never the caller's), echoed as X-Request-Id on every reply and logged. */
export const generateRequestId = (): string => `req_${randomUUID().replace(/-/g, '')}`;

export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
}

/**
 * An answer sent before the body was read (401 or 413 before parsing, a refused upload) closes the connection:
 * a keep-alive socket with an unread body would otherwise stay busy until the client gives up.
 */
export function registerCloseOnUnreadBody(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('Connection', 'close');
  });
}
