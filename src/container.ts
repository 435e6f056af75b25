/**
 * Composition root: picks each implementation from the config in one place and returns the dependencies
 * plus close(). SQLite|PostgreSQL, memory|Redis rate limits, disk|S3 recordings, rules|LLM scorer, heuristic
 * speaker inference (with the model asked when it abstains, under SCORER=llm).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, S3_BUCKET_REQUIRED, type Config } from './config.js';
import { createPostgresDatabaseIfMissing, createStore, migrate, type Store } from './store/db.js';
import type { RateLimiter } from './rate-limit/limiter.js';
import { createMemoryRateLimiter } from './rate-limit/memory.js';
import { createRedisRateLimiter } from './rate-limit/redis.js';
import { createDiskRecordingStore, type DiskRecordingStore } from './recordings/disk.js';
import { createS3RecordingStore, type S3RecordingStore } from './recordings/s3.js';
import type { IngestDeps } from './ingest/ingest-call.js';
import { createHeuristicInferrer } from './ingest/infer-speaker.js';
import { chainInferrers, createModelInferrer } from './ingest/model-inferrer.js';
import type { SpeakerInferrer } from './ingest/resolve-speaker.js';
import { classifyCall } from './ingest/classify-call.js';
import type { Scorer } from './scoring/scorers/scorer.js';
import { createRulesScorer } from './scoring/scorers/rules.js';
import { createLlmScorer } from './scoring/scorers/llm.js';

export interface AppDeps {
  config: Config;
  store: Store;
  limiter: RateLimiter;
  recordings: DiskRecordingStore | S3RecordingStore;
  /** HMAC key of the disk store's upload URLs (empty with S3, which signs its own). */
  uploadSecret: Buffer;
  ingest: IngestDeps;
  /** false silences request logs (tests, benchmarks); a sink receives them as JSON lines instead of stdout. */
  logger?: boolean | LogSink;
  close(): Promise<void>;
}

/** Where a test reads the request log. */
export interface LogSink {
  write(line: string): void;
}

/** Inference and classification share this deadline, below the 60 s client timeout the spec recommends. */
export const INFERENCE_DEADLINE_MS = 45_000;

/** The HMAC key for upload URLs: from the environment, else generated once into DATA_DIR (mode 0600). */
export function uploadSigningSecret(config: Config): Buffer {
  if (config.uploadSigningSecret) return Buffer.from(config.uploadSigningSecret, 'utf8');
  const file = path.join(config.dataDir, 'secrets', 'upload-signing.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8');
}

/** The upload path lives beside the API base, outside /v1: `https://api.example.com/v1` → `…/uploads/recordings`. */
export function uploadBaseUrl(publicApiBaseUrl: string): string {
  return `${publicApiBaseUrl.replace(/\/v1$/, '')}/uploads/recordings`;
}

/** LLM_BASE_URL and LLM_MODEL, required by SCORER=llm; fails naming the first missing variable. */
function llmEndpoint(config: Config): { baseUrl: string; model: string; apiKey: string | undefined } {
  const { baseUrl, model, apiKey } = config.llm;
  if (!baseUrl) throw new ConfigError('SCORER=llm needs LLM_BASE_URL (e.g. https://api.openai.com/v1)');
  if (!model) throw new ConfigError('SCORER=llm needs LLM_MODEL');
  return { baseUrl, model, apiKey: apiKey || undefined };
}

/** The scoring worker's scorer from SCORER (rules by default); fails at start for an unknown or incomplete one. */
export function createScorer(config: Config): Scorer {
  if (config.scorer === 'rules') return createRulesScorer();
  if (config.scorer === 'llm') return createLlmScorer(llmEndpoint(config));
  throw new ConfigError(`SCORER=${String(config.scorer)} is not available; use SCORER=rules or SCORER=llm`);
}

/** The heuristic; with SCORER=llm, the model too, asked only when the heuristic abstains. */
export function createInferrer(config: Config): SpeakerInferrer {
  if (config.scorer !== 'llm') return createHeuristicInferrer();
  return chainInferrers(createHeuristicInferrer(), createModelInferrer(llmEndpoint(config)));
}

/** RECORDINGS_STORE: files in DATA_DIR behind our signed upload route, or a bucket with presigned PUT URLs. */
export function createRecordingStore(
  config: Config,
  uploadSecret: Buffer,
): DiskRecordingStore | S3RecordingStore {
  if (config.recordingsStore === 's3') {
    const { bucket, endpoint, region, forcePathStyle } = config.s3;
    if (!bucket) throw new ConfigError(S3_BUCKET_REQUIRED);
    return createS3RecordingStore({ bucket, endpoint, region, forcePathStyle });
  }
  return createDiskRecordingStore({
    dir: path.join(config.dataDir, 'recordings'),
    uploadBaseUrl: uploadBaseUrl(config.publicApiBaseUrl),
    secret: uploadSecret,
  });
}

export async function openStore(config: Config, options: { apiThreads?: boolean } = {}): Promise<Store> {
  if (config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl))
    await createPostgresDatabaseIfMissing(config.databaseUrl);
  const store = createStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sqliteSynchronous: config.sqliteSynchronous,
    ...options,
  });
  await migrate(store.db);
  return store;
}

export async function createContainer(
  config: Config,
  options: { logger?: boolean | LogSink } = {},
): Promise<AppDeps> {
  const store = await openStore(config, { apiThreads: true });
  const limiter = config.redisUrl
    ? createRedisRateLimiter({ url: config.redisUrl, prefix: `${config.redisKeyPrefix}rl:` })
    : createMemoryRateLimiter({});
  const uploadSecret = config.recordingsStore === 'disk' ? uploadSigningSecret(config) : Buffer.alloc(0);
  const recordings = createRecordingStore(config, uploadSecret);
  return {
    config,
    store,
    limiter,
    recordings,
    uploadSecret,
    logger: options.logger,
    ingest: {
      store,
      recordings,
      inferrer: createInferrer(config),
      classify: (turns, repLabel) => classifyCall(turns, repLabel).callType,
      inferenceDeadlineMs: INFERENCE_DEADLINE_MS,
    },
    async close() {
      await limiter.close();
      recordings.close?.();
      await store.close();
    },
  };
}
