/** GET/POST /login and POST /logout. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { nowIso } from '../../store/db.js';
import type { Database } from '../../store/schema.js';
import { deleteExpiredSessions, findSignInCandidates, recordSignIn } from '../../store/sessions.repo.js';
import { sendPage } from './render.js';
import {
  endSession,
  formField,
  loginCsrfToken,
  loginCsrfValid,
  safeNext,
  sessionCsrfValid,
  startSession,
} from './session.js';
import type { SignInThrottle } from './throttle.js';
import { ErrorPage, FORBIDDEN_FORM } from './views/errors.js';
import { LoginPage } from './views/login.js';

export interface LoginRoutesOptions {
  db: Kysely<Database>;
  staging: boolean;
  throttle: SignInThrottle;
}

const INVALID = 'Email or password is incorrect.';
const INACTIVE = 'This user has been deactivated. Ask an admin of your account to reactivate it.';

export async function loginRoutes(app: FastifyInstance, options: LoginRoutesOptions): Promise<void> {
  const { db, staging, throttle } = options;
  // Unknown emails still cost one scrypt verification, so response time does not reveal which emails exist.
  const dummyHash = await hashPassword('callscore-timing-equaliser');

  function loginForm(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    next: string,
    extra: { email?: string; error?: string; notice?: string } = {},
  ) {
    const csrfToken = loginCsrfToken(request, reply);
    return sendPage(reply, status, LoginPage({ staging, csrfToken, next, ...extra }));
  }

  app.get('/login', async (request, reply) => {
    const next = safeNext((request.query as Record<string, unknown>).next);
    if (request.webSession) return reply.redirect(next, 303);
    const ended = (request.query as Record<string, unknown>).ended === '1';
    return loginForm(
      request,
      reply,
      200,
      next,
      ended ? { notice: 'Your session ended. Sign in again to continue.' } : {},
    );
  });

  app.post('/login', async (request, reply) => {
    const body = request.body;
    const next = safeNext(formField(body, 'next'));
    const email = (formField(body, 'email') ?? '').trim().slice(0, 320);
    if (!loginCsrfValid(request)) {
      return loginForm(request, reply, 403, next, {
        email,
        error: 'Your sign-in form expired. Please sign in again.',
      });
    }
    const password = formField(body, 'password') ?? '';
    const ip = request.ip;
    const waitMs = throttle.retryAfterMs(email, ip);
    if (waitMs > 0) {
      const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
      reply.header('Retry-After', String(Math.ceil(waitMs / 1000)));
      return loginForm(request, reply, 429, next, {
        email,
        error: `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      });
    }
    // An empty field says which one to fill (browsers catch it first; this is for the rest). Not a failed attempt.
    if (!email || !password) {
      const missing =
        !email && !password ? 'your email and password' : !email ? 'your email' : 'your password';
      return loginForm(request, reply, 422, next, { email, error: `Enter ${missing}.` });
    }
    if (password.length > 1024) {
      throttle.recordFailure(email, ip);
      return loginForm(request, reply, 401, next, { email, error: INVALID });
    }

    const candidates = await findSignInCandidates(db, email);
    if (candidates.length === 0) await verifyPassword(password, dummyHash);
    const matched = [];
    for (const candidate of candidates) {
      if (candidate.password_hash && (await verifyPassword(password, candidate.password_hash)))
        matched.push(candidate);
    }
    // Emails are unique per account, not globally: the password picks the user (oldest first on a tie).
    const user = matched.find((u) => u.status === 'active' || u.status === 'pending');
    if (!user) {
      throttle.recordFailure(email, ip);
      if (matched.length) return loginForm(request, reply, 403, next, { email, error: INACTIVE });
      return loginForm(request, reply, 401, next, { email, error: INVALID });
    }

    const now = nowIso();
    await recordSignIn(db, user.id, now);
    await deleteExpiredSessions(db, now);
    await startSession(db, request, reply, user);
    throttle.recordSuccess(email, ip);
    return reply.redirect(next, 303);
  });

  app.post('/logout', async (request, reply) => {
    if (!request.webSession) return reply.redirect('/login', 303);
    if (!sessionCsrfValid(request)) {
      return sendPage(
        reply,
        403,
        ErrorPage({
          ...FORBIDDEN_FORM,
          staging,
          user: request.webSession.user,
          csrfToken: request.webSession.csrfToken,
        }),
      );
    }
    await endSession(db, request, reply);
    return reply.redirect('/login', 303);
  });
}
