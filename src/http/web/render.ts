/** Sending web pages: HTML with a doctype, no caching of signed-in content, and the security headers. */
import type { FastifyReply } from 'fastify';

/**
 * No inline scripts or styles anywhere (no 'unsafe-inline'); pages cannot be framed; forms post only here.
 * `form-action 'self'` plus SameSite=Lax cookies plus the CSRF token make cross-site posts fail three ways.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function applySecurityHeaders(reply: FastifyReply): void {
  reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'same-origin');
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}

/** A rendered view (always a string: our views have no async components). */
export function htmlString(element: JSX.Element): string {
  if (typeof element !== 'string') throw new Error('web views must render synchronously');
  return element;
}

export function sendPage(reply: FastifyReply, status: number, element: JSX.Element): FastifyReply {
  applySecurityHeaders(reply);
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>${htmlString(element)}`);
}
