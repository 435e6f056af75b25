/**
 * The web application under `/`: cookie sessions, urlencoded forms, security headers and HTML error pages,
 * encapsulated so none of it touches the JSON API under /v1.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { Config } from '../../config.js';
import type { Store } from '../../store/db.js';
import { isDatabaseUnavailable } from '../../store/db.js';
import { adminRoutes } from './admin/plugin.js';
import { APP_CSS, APP_CSS_ETAG } from './assets.js';
import { callsRoutes } from './calls.routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { coachingRoutes } from './coaching/routes.js';
import { csvRoutes } from './coaching/csv.routes.js';
import { newCallRoutes } from './coaching/new-call.routes.js';
import { scorecardRoutes } from './scorecards/routes.js';
import type { RecordingStore } from '../../recordings/store.js';
import { loginRoutes } from './login.routes.js';
import { applySecurityHeaders, sendPage } from './render.js';
import { loadSession } from './session.js';
import { SignInThrottle } from './throttle.js';
import { ErrorPage, NOT_FOUND, SERVER_ERROR } from './views/errors.js';
import { STYLESHEET_PATH } from './views/layout.js';

export interface WebRoutesOptions {
  config: Pick<Config, 'serviceEnv' | 'publicAppBaseUrl'>;
  store: Store;
  /** Failed sign-in counters; one per process unless given. */
  throttle?: SignInThrottle;
  /** Where call recordings live (playback and uploads from the web app); without it, neither is offered. */
  recordings?: RecordingStore;
}

/** The HTML 404 for paths outside /v1 (used by the server's not-found handler). */
export function sendWebNotFound(reply: FastifyReply, staging: boolean): FastifyReply {
  return sendPage(reply, 404, ErrorPage({ ...NOT_FOUND, staging }));
}

export async function webRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const db = options.store.db;
  const staging = options.config.serviceEnv === 'staging';
  const throttle = options.throttle ?? new SignInThrottle();

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  app.decorateRequest('webSession', null);

  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/assets/')) return;
    await loadSession(db, request);
  });
  app.addHook('onSend', async (_request, reply) => {
    applySecurityHeaders(reply);
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status >= 500) request.log.error({ err: error }, 'web request failed');
    if (status >= 500 && isDatabaseUnavailable(error)) reply.header('Retry-After', '5');
    const body =
      status >= 500
        ? SERVER_ERROR
        : {
            heading: 'Request not understood',
            message: 'The request could not be read. Go back and try again.',
          };
    return sendPage(reply, status, ErrorPage({ ...body, staging }));
  });

  app.get(STYLESHEET_PATH, async (request, reply) => {
    reply.header('ETag', APP_CSS_ETAG).header('Cache-Control', 'public, max-age=300, must-revalidate');
    if (request.headers['if-none-match'] === APP_CSS_ETAG) return reply.code(304).send();
    return reply.type('text/css; charset=utf-8').send(APP_CSS);
  });

  await app.register(loginRoutes, { db, staging, throttle });
  await app.register(callsRoutes, { db, dialect: options.store.dialect, staging });
  await app.register(dashboardRoutes, { db, staging });
  await app.register(adminRoutes, { db, staging, config: options.config });
  await app.register(coachingRoutes, { db, staging, recordings: options.recordings });
  await app.register(csvRoutes, {
    db,
    dialect: options.store.dialect,
    publicAppBaseUrl: options.config.publicAppBaseUrl,
  });
  await app.register(newCallRoutes, { db, staging, recordings: options.recordings });
  await app.register(scorecardRoutes, { db, staging });
}
