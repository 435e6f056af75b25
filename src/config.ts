/**
 * Settings: each declared once with its type, default and why. The only module that reads process.env;
 * everything else receives a Config. Invalid values fail at boot with a message naming the variable.
 */
import { isIP } from 'node:net';
import path from 'node:path';

export interface Config {
  /** Listen address. */
  port: number;
  host: string;
  /** SQLite file, recordings and generated secrets live here. */
  dataDir: string;
  /** postgres://… switches from the embedded SQLite file to PostgreSQL. */
  databaseUrl: string | undefined;
  /** Shared rate-limit counters across API processes. */
  redisUrl: string | undefined;
  /** Namespace of our Redis keys, so several deployments (staging, production) can share one Redis. */
  redisKeyPrefix: string;
  /** The official API base (ends in /v1): Location headers and upload URLs are built on it. */
  publicApiBaseUrl: string;
  /** app_url = `${publicAppBaseUrl}/calls/{id}`. */
  publicAppBaseUrl: string;
  serviceEnv: 'production' | 'staging';
  /** disk: files in DATA_DIR/recordings behind the API's signed upload route; s3: a bucket with presigned PUT URLs. */
  recordingsStore: 'disk' | 's3';
  /**
   * RECORDINGS_STORE=s3 only (S3_BUCKET is then required). Endpoint for S3-compatible stores; region unset: the AWS
   * SDK's chain (or us-east-1 with an endpoint); path-style addressing defaults to on when an endpoint is given.
   * Credentials always come from the SDK's default chain (environment, shared files, instance or task role).
   */
  s3: {
    bucket: string | undefined;
    endpoint: string | undefined;
    region: string | undefined;
    forcePathStyle: boolean | undefined;
  };
  /** Requests per minute. */
  rateLimitPerKey: number;
  rateLimitPerIp: number;
  /** inline: a worker_thread of `serve`; off: run `callscore worker` separately. */
  worker: 'inline' | 'off';
  scorer: 'rules' | 'llm';
  llm: { baseUrl: string | undefined; model: string | undefined; apiKey: string | undefined };
  /** Create the demo workspace on an empty embedded database. */
  demo: boolean | undefined;
  /** Proxies whose X-Forwarded-For is believed (Fastify trustProxy syntax: CIDRs, comma separated, or a hop count). */
  trustProxy: string | number | boolean | undefined;
  /** full: every 202 survives power loss, at a measured cost. */
  sqliteSynchronous: 'normal' | 'full';
  /** Below either, a call is skipped as too_short. */
  skipMinRepTurns: number;
  skipMinRepWords: number;
  logLevel: string;
  /** HMAC key for upload URLs; shared by every API process. Unset: generated once into DATA_DIR/secrets. */
  uploadSigningSecret: string | undefined;
}

type Env = Record<string, string | undefined>;

class ConfigError extends Error {}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function bool(env: Env, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function databaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw))
    throw new ConfigError(`DATABASE_URL must start with postgres:// (got "${raw.split(':')[0]}:…")`);
  return raw;
}

function redisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!URL.canParse(raw) || !/^rediss?:\/\/[^/?#]/.test(raw))
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL with a host, got "${raw}"`);
  return raw;
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a TRUST_PROXY list: an address, an address/prefix or address/netmask, or a keyword. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_KEYWORDS.has(entry)) return true;
  const [address = '', mask, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (mask === undefined) return true;
  if (/^\d{1,3}$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(mask) === 4;
}

function trustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw === '' || raw === 'false') return undefined;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (!raw.split(',').every((entry) => isProxyEntry(entry.trim()))) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count, or comma-separated addresses or CIDRs (or loopback, linklocal, uniquelocal), got "${raw}"`,
    );
  }
  return raw;
}

/** An absolute http(s) URL without its trailing slashes; anything else stops the start naming the variable. */
function baseUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    // reported below
  }
  if (
    !parsed ||
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.search ||
    parsed.hash
  )
    throw new ConfigError(`${name} must be an absolute http(s) URL without query or fragment, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** The API's official base ends in `/v1` (spec "Base address"): `Location` and `upload_url` are built on it. */
function apiBaseUrl(env: Env, fallback: string): string {
  const base = baseUrl(env, 'PUBLIC_API_BASE_URL', fallback);
  if (!new URL(base).pathname.endsWith('/v1'))
    throw new ConfigError(`PUBLIC_API_BASE_URL must end in /v1 (the contract's base address), got "${base}"`);
  return base;
}

/** The start-up message for RECORDINGS_STORE=s3 without a bucket. */
export const S3_BUCKET_REQUIRED =
  'RECORDINGS_STORE=s3 needs S3_BUCKET (the bucket recordings are uploaded to); set S3_BUCKET, plus S3_REGION and ' +
  'S3_ENDPOINT for a store other than AWS S3, or unset RECORDINGS_STORE to keep recordings in DATA_DIR';

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080);
  if (port > 65535) throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
  const recordingsStore = oneOf(env, 'RECORDINGS_STORE', ['disk', 's3'] as const, 'disk');
  if (recordingsStore === 's3' && !env.S3_BUCKET) throw new ConfigError(S3_BUCKET_REQUIRED);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    redisUrl: redisUrl(env.REDIS_URL),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || `callscore:${env.SERVICE_ENV || 'production'}:`,
    publicApiBaseUrl: apiBaseUrl(env, `http://localhost:${port}/v1`),
    publicAppBaseUrl: baseUrl(env, 'PUBLIC_APP_BASE_URL', `http://localhost:${port}`),
    serviceEnv: oneOf(env, 'SERVICE_ENV', ['production', 'staging'] as const, 'production'),
    recordingsStore,
    s3: {
      bucket: env.S3_BUCKET || undefined,
      endpoint: env.S3_ENDPOINT || undefined,
      region: env.S3_REGION || undefined,
      forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE'),
    },
    rateLimitPerKey: int(env, 'RATE_LIMIT_PER_KEY', 120, 1),
    rateLimitPerIp: int(env, 'RATE_LIMIT_PER_IP', 30, 1),
    worker: oneOf(env, 'WORKER', ['inline', 'off'] as const, 'inline'),
    scorer: oneOf(env, 'SCORER', ['rules', 'llm'] as const, 'rules'),
    llm: { baseUrl: env.LLM_BASE_URL, model: env.LLM_MODEL, apiKey: env.LLM_API_KEY },
    demo: bool(env, 'DEMO'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    sqliteSynchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', ['normal', 'full'] as const, 'normal'),
    skipMinRepTurns: int(env, 'SKIP_MIN_REP_TURNS', 3),
    skipMinRepWords: int(env, 'SKIP_MIN_REP_WORDS', 40),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    uploadSigningSecret: env.UPLOAD_SIGNING_SECRET || undefined,
  };
}

export { ConfigError };
