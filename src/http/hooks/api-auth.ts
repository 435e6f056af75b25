/**
 * API authentication and rate limiting, in DESIGN 1b order: identify the caller → rate-limit (per key, or per
 * IP for callers without a valid key) → 401 for an unusable key → 403 for account and scope.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../../errors.js';
import { bearerKey, digestApiKey, digestsEqual, type Scope } from '../../auth/api-keys.js';
import { findApiKeyByDigest, touchApiKey } from '../../store/api-keys.repo.js';
import type { Store } from '../../store/db.js';
import type { ApiCaller } from '../../auth/caller.js';
import { rateLimitHeaders, type RateLimiter } from '../../rate-limit/limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: ApiCaller | null;
  }
  interface FastifyContextConfig {
    /** Scope the route needs; routes without one need no key (GET /v1/openapi.json). */
    scope?: Scope;
  }
}

import { FEATURE_CALL_SCORING_API } from '../../auth/features.js';
const TOUCH_INTERVAL_MS = 60_000;

const REFUSAL_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_api_key: 'Send a valid API key as "Authorization: Bearer svc_sk_…".',
  api_key_revoked: 'This API key was revoked; create a new one in the web application.',
  api_key_owner_inactive:
    'The admin who created this API key is no longer active; create a new key or transfer it.',
};

/**
 * `keyId` decides the rate-limit bucket: a usable key is limited on its own, anything else by client IP.
 * `refusal` is the 401/403 to answer once the request has been counted.
 */
interface Identified {
  keyId: string | null;
  caller: ApiCaller | null;
  refusal: AppError | null;
}

function unauthorized(code: ErrorCode): Identified {
  return {
    keyId: null,
    caller: null,
    refusal: new AppError(code, REFUSAL_MESSAGES[code] ?? 'Unauthorized.'),
  };
}

function accountRefusal(status: string, features: string[]): AppError | null {
  if (status === 'suspended') return new AppError('account_suspended', 'This account is suspended.');
  if (status === 'payment_required') {
    return new AppError(
      'payment_required',
      'This account has an unpaid balance; an administrator must settle it.',
    );
  }
  if (!features.includes(FEATURE_CALL_SCORING_API)) {
    return new AppError(
      'feature_not_enabled',
      'Call scoring through the API is not enabled for this account.',
    );
  }
  return null;
}

async function identify(store: Store, authorization: string | undefined, now: number): Promise<Identified> {
  const secret = bearerKey(authorization);
  if (!secret) return unauthorized('invalid_api_key');
  const digest = digestApiKey(secret);
  const row = await findApiKeyByDigest(store.db, digest);
  if (!row || !digestsEqual(row.digest, digest)) return unauthorized('invalid_api_key');
  const rotatedOut = row.expires_at !== null && Date.parse(row.expires_at) <= now;
  if (row.revoked_at !== null || rotatedOut) return unauthorized('api_key_revoked');
  if (row.creator_status !== 'active') return unauthorized('api_key_owner_inactive');
  const refusal = accountRefusal(row.account_status, JSON.parse(row.account_features) as string[]);
  if (refusal) return { keyId: row.id, caller: null, refusal };
  // Record use at most once a minute: a write per request would cost more than the request itself.
  if (!row.last_used_at || now - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
    await touchApiKey(store.db, row.id, new Date(now).toISOString());
  }
  return {
    keyId: row.id,
    refusal: null,
    caller: {
      keyId: row.id,
      accountId: row.account_id,
      teamId: row.team_id,
      teamDeleted: row.team_deleted_at !== null,
      creatorId: row.created_by,
      creatorEmail: row.creator_email,
      creatorName: row.creator_name,
      scopes: new Set(JSON.parse(row.scopes) as string[]),
    },
  };
}

export interface ApiAuthOptions {
  store: Store;
  limiter: RateLimiter;
  perKey: number;
  perIp: number;
}

/** Registers the onRequest hook on a plugin scope holding the /v1 routes. */
export function registerApiAuth(app: FastifyInstance, options: ApiAuthOptions): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const scope = request.routeOptions.config.scope;
    if (!scope) return;
    const identified = await identify(options.store, request.headers.authorization, Date.now());
    const bucket = identified.keyId ? `key:${identified.keyId}` : `ip:${request.ip}`;
    const limit = identified.keyId ? options.perKey : options.perIp;
    const result = await options.limiter.hit(bucket, limit);
    reply.headers(rateLimitHeaders(result, limit));
    if (!result.allowed) {
      throw new AppError(
        'rate_limited',
        `Rate limit of ${limit} requests per minute exceeded; retry after the delay.`,
        {
          retryAfter: result.retryAfter,
        },
      );
    }
    if (identified.refusal) throw identified.refusal;
    const caller = identified.caller!;
    if (!caller.scopes.has(scope))
      throw new AppError('insufficient_scope', `This API key lacks the "${scope}" scope.`);
    request.caller = caller;
  });
}
