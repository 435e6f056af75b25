/**
 * The admin pages' guard and form helpers. Anonymous visitors go to /login; signed-in managers and reps get the
 * ordinary 404 (the pages do not exist for them, for GET and POST alike); a POST from an admin needs the
 * session's CSRF token (403 otherwise). The role comes from the users row on every request, so a demoted admin
 * loses access at once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPage } from '../render.js';
import { requireSignIn, sessionCsrfValid, type WebSession } from '../session.js';
import { ErrorPage, FORBIDDEN_FORM, NOT_FOUND } from '../views/errors.js';
import type { PageBase } from './views/shell.js';

export function adminGuard(staging: boolean) {
  return async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const session = request.webSession;
    if (!session) {
      await requireSignIn(request, reply);
      return reply;
    }
    if (session.user.role !== 'admin') return notFound(reply, staging, session);
    if (request.method === 'POST' && !sessionCsrfValid(request)) {
      return sendPage(
        reply,
        403,
        ErrorPage({ ...FORBIDDEN_FORM, staging, user: session.user, csrfToken: session.csrfToken }),
      );
    }
    return undefined;
  };
}

export function notFound(reply: FastifyReply, staging: boolean, session: WebSession): FastifyReply {
  return sendPage(
    reply,
    404,
    ErrorPage({ ...NOT_FOUND, staging, user: session.user, csrfToken: session.csrfToken }),
  );
}

/** The page basics every admin view takes. */
export function pageBase(request: FastifyRequest, staging: boolean): PageBase & { session: WebSession } {
  const session = request.webSession!;
  return { staging, user: session.user, csrfToken: session.csrfToken, session };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The `:id` route parameter when it is a UUID (lower-cased), else null (answer 404 without a query). */
export function idParam(request: FastifyRequest): string | null {
  const raw = (request.params as { id?: unknown }).id;
  if (typeof raw !== 'string') return null;
  const id = raw.toLowerCase();
  return UUID.test(id) ? id : null;
}

/** A single trimmed text field (repeated fields give ''), with control characters refused by the caller. */
export function textField(body: unknown, name: string): string {
  if (!body || typeof body !== 'object' || !Object.prototype.hasOwnProperty.call(body, name)) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Every value of a repeated field (checkboxes): strings only, de-duplicated, bounded. */
export function listField(body: unknown, name: string): string[] {
  if (!body || typeof body !== 'object' || !Object.prototype.hasOwnProperty.call(body, name)) return [];
  const value = (body as Record<string, unknown>)[name];
  const values = Array.isArray(value) ? value : [value];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length <= 200))].slice(
    0,
    500,
  );
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A display name (user, team, key, account): 1..max code points, no control characters. */
export function nameProblem(label: string, value: string, max: number): string | null {
  if (!value) return `${label} is required.`;
  if ([...value].length > max) return `${label} must be at most ${max} characters.`;
  if (CONTROL.test(value)) return `${label} must not contain control characters.`;
  return null;
}

/** Confirmation texts after a redirect, chosen by a short code in the query (never echoed). */
export const NOTICES: Record<string, string> = {
  saved: 'Changes saved.',
  revoked: 'The key was revoked. Requests with it are refused from now on.',
  already_created:
    'That form was already sent: the key exists and its secret was shown once. If nobody kept it, revoke the key and create another.',
  transferred: 'The key was transferred.',
  deactivated: 'The user was deactivated and signed out everywhere.',
  reactivated: 'The user was reactivated.',
  created: 'Team created.',
  renamed: 'Team renamed.',
  deleted: 'Team deleted.',
};

export function noticeOf(request: FastifyRequest): string | null {
  const code = (request.query as Record<string, unknown> | undefined)?.done;
  return typeof code === 'string' ? (NOTICES[code] ?? null) : null;
}
