/**
 * buildServer(deps): the whole HTTP surface, never listening (tests and `serve` decide that).
 * Request order (DESIGN 1b): route → caller → rate limit → 401/403 → body (413/415/400) → schema (422) → use case.
 */
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import swagger from '@fastify/swagger';
import { isUtf8 } from 'node:buffer';
import { AppError } from '../errors.js';
import type { AppDeps } from '../container.js';
import { errorHandler, sendError } from './error-handler.js';
import {
  answerClientError,
  generateRequestId,
  registerCloseOnUnreadBody,
  registerRequestId,
} from './hooks/request-id.js';
import { registerApiAuth } from './hooks/api-auth.js';
import { quickStringLength } from './ajv-string-length.js';
import { callsRoutes } from './v1/calls.routes.js';
import { recordingsRoutes, uploadRoutes } from './v1/recordings.routes.js';
import { openApiRoutes, OPENAPI_DOCUMENT } from './v1/openapi.routes.js';
import { registerMetrics } from './metrics.js';
import { sendWebNotFound, webRoutes } from './web/plugin.js';
import { LINK_PATHS } from './web/admin/users.routes.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

function loggerOptions(deps: AppDeps): FastifyServerOptions['logger'] {
  if (deps.logger === false) return false;
  return {
    level: deps.config.logLevel,
    base: { env: deps.config.serviceEnv },
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        path: loggedPath(req.url),
        ip: req.ip,
      }),
    },
    ...(typeof deps.logger === 'object' ? { stream: deps.logger } : {}),
  };
}

/** A one-time link page's path: its last segment is the secret token. */
const ONE_TIME_LINK = new RegExp(`^(${Object.values(LINK_PATHS).join('|')})/[^/]+`);

/**
 * A request's path as logged: no query string (it may carry an upload signature), and the token of a one-time
 * link (invitation, password reset) replaced, since whoever reads the log could use it.
 */
function loggedPath(url: string): string {
  return url.split('?')[0]!.replace(ONE_TIME_LINK, '$1/:token');
}

const CALL_PATH = /^\/v1\/calls\/([^/?#]*)(.*)$/s;

/**
 * A call id that cannot be percent-decoded (`/v1/calls/%ZZ`) is a malformed id like any other (DESIGN section 4:
 * authentication, then 404 not_found), not an unknown route: it is routed as an id that matches no call.
 */
export function routableUrl(url: string): string {
  const call = CALL_PATH.exec(url);
  if (!call) return url;
  try {
    decodeURIComponent(call[1]!);
    return url;
  } catch {
    return `/v1/calls/undecodable${call[2]!}`;
  }
}

/** TRUST_PROXY: a hop count, `true`, or addresses/CIDRs whose X-Forwarded-For is believed for the client IP. */
function trustProxy(value: string | number | boolean | undefined): FastifyServerOptions['trustProxy'] {
  if (typeof value === 'number') return (_address: string, hop: number) => hop < value;
  return value ?? false;
}

/**
 * `application/json` with no charset or a UTF-8 one. JSON text has no other encoding (RFC 8259 §8.1): a body
 * declared in another charset is refused (415) rather than misread.
 */
function isUtf8Json(header: string | undefined): boolean {
  const [type, ...params] = (header ?? '').split(';');
  if (type!.trim().toLowerCase() !== 'application/json') return false;
  return params.every((param) => {
    const [name = '', value = ''] = param.split('=', 2).map((part) => part.trim().toLowerCase());
    return name !== 'charset' || ['utf-8', 'utf8', '"utf-8"', '"utf8"'].includes(value);
  });
}

export async function buildServer(deps: AppDeps): Promise<FastifyInstance> {
  const staging = deps.config.serviceEnv === 'staging';
  const notFound = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0]!;
    // The API's namespaces (/v1, future /vN, the upload path) keep the JSON envelope; every other path belongs
    // to the web application and gets an HTML page.
    if (!/^\/(v\d+|uploads)(\/|$)/.test(path)) return sendWebNotFound(reply, staging);
    return sendError(request, reply, new AppError('route_not_found', `No route ${request.method} ${path}.`));
  };
  const app = Fastify({
    logger: loggerOptions(deps),
    genReqId: generateRequestId,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    trustProxy: trustProxy(deps.config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify answers a path parameter over 100 characters with its own 414 before any hook runs: no envelope,
    // no X-Request-Id, no authentication. A long call id is a malformed id (404 not_found, DESIGN section 4); the
    // URL itself stays bounded by Node's 16 KB header limit.
    routerOptions: { maxParamLength: 16 * 1024 },
    rewriteUrl: (req) => routableUrl(req.url ?? '/'),
    // A path that cannot be percent-decoded matches no route: 404 in the envelope (or the web app's page), with
    // X-Request-Id, rather than Fastify's bare 400. No hook runs for these, so the header is set here.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id);
      if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return notFound(request, reply);
      }
      return errorHandler(error, request, reply);
    },
    clientErrorHandler: answerClientError,
    // The body is parsed by our own parser below; prototype keys are refused by the validation step (422).
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    ajv: {
      // Fastify's defaults silently drop unknown fields and coerce types: the contract must reject both.
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
        allErrors: true,
        allowUnionTypes: true,
      },
      plugins: [quickStringLength],
    },
  });

  registerRequestId(app);
  registerCloseOnUnreadBody(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFound);
  // The route is the first step (DESIGN 1b): an unknown path or method answers 404 before its body is read, so an
  // oversized or mistyped body cannot turn it into a 413 or 415.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return notFound(request, reply);
  });

  await app.register(swagger, OPENAPI_DOCUMENT(deps.config.publicApiBaseUrl));

  registerMetrics(app, { store: deps.store, env: deps.config.serviceEnv });
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    // Ready when the database and the rate limits' store (Redis with REDIS_URL) both answer: the API needs both.
    await Promise.all([
      deps.store.db.selectFrom('accounts').select('id').limit(1).execute(),
      deps.limiter.ping(),
    ]);
    return { status: 'ready' };
  });

  await app.register(
    async (v1) => {
      v1.removeAllContentTypeParsers();
      v1.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
        // JSON text is UTF-8 (RFC 8259 §8.1): bytes that are not are refused, never replaced with U+FFFD.
        const bytes = body as Buffer;
        if (!isUtf8(bytes)) {
          done(new AppError('invalid_json', 'The request body is not valid UTF-8.'), undefined);
          return;
        }
        try {
          done(null, JSON.parse(bytes.toString('utf8')));
        } catch {
          done(new AppError('invalid_json', 'The request body is not valid JSON.'), undefined);
        }
      });
      // Fastify answers HEAD on every GET route; the contract has no HEAD, and a method it does not list on a known
      // path is route_not_found, with or without a key (DESIGN 4). Registered before authentication.
      v1.addHook('onRequest', async (request, reply) => {
        if (request.method === 'HEAD') return notFound(request, reply);
      });
      registerApiAuth(v1, {
        store: deps.store,
        limiter: deps.limiter,
        perKey: deps.config.rateLimitPerKey,
        perIp: deps.config.rateLimitPerIp,
      });
      // After authentication (onRequest), before parsing: size first, then media type (DESIGN 1b step 3).
      v1.addHook('preParsing', async (request) => {
        if (request.method !== 'POST') return;
        if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) {
          throw new AppError('payload_too_large', 'The request body is over 1 MiB.');
        }
        if (!isUtf8Json(request.headers['content-type'])) {
          throw new AppError(
            'unsupported_media_type',
            'Send the body as UTF-8 JSON with Content-Type: application/json.',
          );
        }
      });
      v1.addHook('preValidation', async (request) => {
        if (request.method === 'POST' && request.body === undefined) {
          throw new AppError('invalid_json', 'The request body is empty; send a JSON object.');
        }
      });
      await v1.register(callsRoutes, {
        ingest: deps.ingest,
        publicApiBaseUrl: deps.config.publicApiBaseUrl,
        publicAppBaseUrl: deps.config.publicAppBaseUrl,
      });
      await v1.register(recordingsRoutes, { store: deps.store, recordings: deps.recordings });
      await v1.register(openApiRoutes);
    },
    { prefix: '/v1' },
  );

  // The disk store's signed PUT target; with S3 the client uploads to the bucket's presigned URL instead.
  if (deps.recordings.kind === 'disk') {
    await app.register(uploadRoutes, {
      store: deps.store,
      recordings: deps.recordings,
      secret: deps.uploadSecret,
    });
  }
  await app.register(webRoutes, { config: deps.config, store: deps.store, recordings: deps.recordings });
  return app;
}
