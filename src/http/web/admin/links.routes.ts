/**
 * The public one-time link pages: /invitations/:token (a pending user chooses a password and is signed in)
 * and /password-reset/:token (an active user chooses a new one; their other sessions end). The token is random
 * (32 bytes); only its SHA-256 is stored. These forms have no session yet, so their CSRF protection is a
 * double-submit token in a cookie scoped to the link's path, as on the sign-in form.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { hashPassword } from '../../../auth/passwords.js';
import { findLiveUserToken, redeemUserToken, type TokenPurpose } from '../../../store/admin.repo.js';
import type { Database } from '../../../store/schema.js';
import { sendPage } from '../render.js';
import { digestToken, formField, randomToken, startSession, tokensEqual } from '../session.js';
import { LINK_PATHS } from './users.routes.js';
import { DeadLinkPage, MIN_PASSWORD_LENGTH, SetPasswordPage } from './views/links.js';

export const LINK_CSRF_COOKIE = 'callscore_link_csrf';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const TEXTS: Record<TokenPurpose, { heading: string; intro: string; button: string; status: string }> = {
  invitation: {
    heading: 'Welcome to Callscore',
    intro: 'Choose a password to accept your invitation. You will be signed in right away.',
    button: 'Accept invitation',
    status: 'pending',
  },
  password_reset: {
    heading: 'Choose a new password',
    intro: 'Your new password replaces the old one and signs you out of other browsers.',
    button: 'Set new password',
    status: 'active',
  },
};

export async function linksRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; staging: boolean },
): Promise<void> {
  const { db, staging } = options;

  function csrfToken(request: FastifyRequest, reply: FastifyReply, path: string): string {
    const existing = request.cookies[LINK_CSRF_COOKIE];
    if (existing && TOKEN.test(existing)) return existing;
    const token = randomToken();
    reply.setCookie(LINK_CSRF_COOKIE, token, {
      path,
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: 2 * 3600,
    });
    return token;
  }

  async function liveToken(request: FastifyRequest, purpose: TokenPurpose) {
    const token = (request.params as { token?: unknown }).token;
    if (typeof token !== 'string' || !TOKEN.test(token)) return undefined;
    const row = await findLiveUserToken(db, digestToken(token), purpose, new Date().toISOString());
    return row && row.status === TEXTS[purpose].status ? { token, row } : undefined;
  }

  for (const purpose of ['invitation', 'password_reset'] as const) {
    const base = LINK_PATHS[purpose];
    const texts = TEXTS[purpose];

    const form = (
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      token: string,
      email: string,
      error?: string,
    ) =>
      sendPage(
        reply,
        status,
        SetPasswordPage({
          staging,
          csrfToken: csrfToken(request, reply, base),
          action: `${base}/${token}`,
          heading: texts.heading,
          intro: texts.intro,
          button: texts.button,
          email,
          error,
        }),
      );

    app.get(`${base}/:token`, async (request, reply) => {
      const found = await liveToken(request, purpose);
      if (!found) return sendPage(reply, 404, DeadLinkPage({ staging }));
      return form(request, reply, 200, found.token, found.row.email);
    });

    app.post(`${base}/:token`, async (request, reply) => {
      const found = await liveToken(request, purpose);
      if (!found) return sendPage(reply, 404, DeadLinkPage({ staging }));
      const { token, row } = found;
      if (!tokensEqual(formField(request.body, '_csrf'), request.cookies[LINK_CSRF_COOKIE])) {
        return form(request, reply, 403, token, row.email, 'This form expired. Please try again.');
      }
      const password = formField(request.body, 'password') ?? '';
      const confirm = formField(request.body, 'confirm') ?? '';
      let error: string | undefined;
      if ([...password].length < MIN_PASSWORD_LENGTH)
        error = `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`;
      else if (password.length > 1024) error = 'Choose a password of at most 1024 characters.';
      else if (password !== confirm) error = 'The two passwords do not match.';
      if (error) return form(request, reply, 422, token, row.email, error);
      // scrypt before the transaction: transactions stay short.
      const hash = await hashPassword(password);
      const redeemed = await redeemUserToken(db, row.id, purpose, hash, new Date().toISOString());
      if (!redeemed) return sendPage(reply, 404, DeadLinkPage({ staging }));
      request.log.info({ userId: redeemed.userId, purpose }, 'one-time link used');
      reply.clearCookie(LINK_CSRF_COOKIE, { path: base });
      await startSession(db, request, reply, { id: redeemed.userId, account_id: redeemed.accountId });
      return reply.redirect('/calls', 303);
    });
  }
}
