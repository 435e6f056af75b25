/**
 * Cookie sessions, CSRF and the sign-in guard of the web application.
 *
 * - The session cookie holds a random 32-byte token (base64url); the database keeps only its SHA-256, so a
 *   database leak yields no usable cookie. HttpOnly, SameSite=Lax, Path=/, Secure when the request came over
 *   HTTPS (Fastify's `request.protocol`, which honours X-Forwarded-Proto from TRUST_PROXY proxies).
 * - Every form carries the session's synchronizer token (`_csrf`), compared in constant time. The sign-in form,
 *   which has no session yet, uses a double-submit token: a random value in a short-lived cookie scoped to
 *   /login and in the form.
 * - An anonymous visitor to a page is sent to /login (303) with `next`, which only accepts same-site paths.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { deleteSession, findLiveSession, insertSession, touchSession } from '../../store/sessions.repo.js';
import type { Viewer } from '../../store/web-calls.repo.js';

export const SESSION_COOKIE = 'callscore_session';
export const LOGIN_CSRF_COOKIE = 'callscore_login_csrf';
/** A session ends after 7 days without a request, and 30 days after sign-in whatever happens. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** Sliding expiry is written at most this often, so reading pages does not write on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

export interface WebSession {
  /** SHA-256 of the cookie token (the row's id). */
  id: string;
  csrfToken: string;
  user: { id: string; accountId: string; email: string; name: string; role: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    webSession: WebSession | null;
  }
}

export function digestToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time equality of two strings (false when either is missing or their lengths differ). */
export function tokensEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length === 0) return false;
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function viewerOf(session: WebSession): Viewer {
  return { userId: session.user.id, accountId: session.user.accountId, role: session.user.role };
}

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number, path = '/') {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  };
}

/** onRequest: resolves the session cookie to a live session of an active user, or null. */
export async function loadSession(db: Kysely<Database>, request: FastifyRequest): Promise<void> {
  request.webSession = null;
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return;
  const id = digestToken(token);
  const now = Date.now();
  const row = await findLiveSession(db, id, new Date(now).toISOString());
  if (!row) return;
  if (now - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) {
    const expires = Math.min(now + SESSION_IDLE_MS, Date.parse(row.absolute_expires_at));
    await touchSession(db, id, new Date(now).toISOString(), new Date(expires).toISOString());
  }
  request.webSession = {
    id,
    csrfToken: row.csrf_token,
    user: { id: row.user_id, accountId: row.account_id, email: row.email, name: row.name, role: row.role },
  };
}

/** Starts a fresh session (never reusing a cookie sent before sign-in: no fixation) and sets its cookie. */
export async function startSession(
  db: Kysely<Database>,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; account_id: string },
): Promise<void> {
  const token = randomToken();
  const now = Date.now();
  await insertSession(db, {
    id: digestToken(token),
    user_id: user.id,
    account_id: user.account_id,
    csrf_token: randomToken(),
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: new Date(now + SESSION_IDLE_MS).toISOString(),
    absolute_expires_at: new Date(now + SESSION_ABSOLUTE_MS).toISOString(),
  });
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, SESSION_ABSOLUTE_MS / 1000));
  reply.clearCookie(LOGIN_CSRF_COOKIE, { path: '/login' });
}

export async function endSession(
  db: Kysely<Database>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (request.webSession) await deleteSession(db, request.webSession.id);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The sign-in form's double-submit token: reuses the cookie's value, or issues a new one. */
export function loginCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[LOGIN_CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken();
  reply.setCookie(LOGIN_CSRF_COOKIE, token, cookieOptions(request, 2 * 3600, '/login'));
  return token;
}

export function loginCsrfValid(request: FastifyRequest): boolean {
  return tokensEqual(formField(request.body, '_csrf'), request.cookies[LOGIN_CSRF_COOKIE]);
}

export function sessionCsrfValid(request: FastifyRequest): boolean {
  return !!request.webSession && tokensEqual(formField(request.body, '_csrf'), request.webSession.csrfToken);
}

/** A single string field of an urlencoded form body (repeated or missing fields give undefined). */
export function formField(body: unknown, name: string): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const value = Object.prototype.hasOwnProperty.call(body, name)
    ? (body as Record<string, unknown>)[name]
    : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * `next` after sign-in: only a same-site absolute path ("/calls/…"), never "//host", "/\host", a scheme or
 * control characters; anything else falls back to the library.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/calls';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/calls';
  if (value.includes('\\') || [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    return '/calls';
  try {
    const parsed = new URL(value, 'http://callscore.invalid');
    if (parsed.origin !== 'http://callscore.invalid') return '/calls';
    if (parsed.pathname === '/login' || parsed.pathname === '/logout') return '/calls';
    // Normalising "/..//host" yields "//host", which a browser reads as another site.
    if (parsed.pathname.startsWith('//')) return '/calls';
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return '/calls';
  }
}

/**
 * preHandler for pages: anonymous visitors go to /login?next=<this page> with 303. A form posted after the session
 * ended returns to the page it was on (its same-host Referer), and the sign-in page says the session ended.
 */
export async function requireSignIn(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.webSession) return;
  const next =
    request.method === 'GET' || request.method === 'HEAD' ? safeNext(request.url) : sameHostPath(request);
  const ended = request.cookies[SESSION_COOKIE] ? '&ended=1' : '';
  await reply.redirect(`/login?next=${encodeURIComponent(next)}${ended}`, 303);
}

function sameHostPath(request: FastifyRequest): string {
  try {
    const referer = new URL(String(request.headers.referer ?? ''));
    return referer.host === request.headers.host ? safeNext(referer.pathname + referer.search) : '/calls';
  } catch {
    return '/calls';
  }
}
