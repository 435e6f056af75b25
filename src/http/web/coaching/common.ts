/** Small helpers shared by the coaching and scorecard routes: the 404 / expired-form pages and id checks. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPage } from '../render.js';
import type { WebSession } from '../session.js';
import { ErrorPage, FORBIDDEN_FORM, NOT_FOUND } from '../views/errors.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function idParam(request: FastifyRequest): string | null {
  const id = String((request.params as { id?: unknown }).id ?? '').toLowerCase();
  return UUID.test(id) ? id : null;
}

export function sendNotFound(reply: FastifyReply, session: WebSession, staging: boolean): FastifyReply {
  return sendPage(
    reply,
    404,
    ErrorPage({ ...NOT_FOUND, staging, user: session.user, csrfToken: session.csrfToken }),
  );
}

export function sendExpiredForm(reply: FastifyReply, session: WebSession, staging: boolean): FastifyReply {
  return sendPage(
    reply,
    403,
    ErrorPage({ ...FORBIDDEN_FORM, staging, user: session.user, csrfToken: session.csrfToken }),
  );
}

export const isManager = (role: string): boolean => role === 'admin' || role === 'manager';

/** A single string query parameter, or ''. */
export function queryParam(query: unknown, name: string): string {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= 200 ? value : '';
}
