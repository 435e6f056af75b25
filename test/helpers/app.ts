/**
 * startApp: a real server on 127.0.0.1:0 over a fresh database of the given dialect, seeded with the test
 * workspace; `api()` speaks HTTP to it with fetch. Closed and dropped by `close()`.
 */
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createContainer, type AppDeps } from '../../src/container.js';
import { buildServer } from '../../src/http/server.js';
import { parseWorkspace, seedWorkspace, type Workspace } from '../../src/seed/workspace.js';
import type { Dialect } from '../../src/store/db.js';
import { createTestDatabase } from './databases.js';
import { KEYS, TEST_WORKSPACE } from './workspace.js';

export interface TestApp {
  baseUrl: string;
  deps: AppDeps;
  app: FastifyInstance;
  /** JSON request to the API; `key` null sends no Authorization header. */
  api(method: string, path: string, options?: ApiOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiOptions {
  key?: string | null;
  body?: unknown;
  /** Raw body, sent as is (with `headers` deciding the content type). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function startApp(
  dialect: Dialect,
  options: {
    env?: Record<string, string>;
    workspace?: Workspace | null;
    /** Collects the server's request log, one JSON line each; without it the log is off. */
    logs?: string[];
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase(dialect);
  const config = loadConfig({
    DATA_DIR: testDb.dataDir,
    ...(testDb.databaseUrl ? { DATABASE_URL: testDb.databaseUrl } : {}),
    PUBLIC_API_BASE_URL: 'https://api.callscore.test/v1',
    PUBLIC_APP_BASE_URL: 'https://app.callscore.test',
    WORKER: 'off',
    DEMO: 'false',
    RATE_LIMIT_PER_KEY: '100000',
    RATE_LIMIT_PER_IP: '100000',
    ...options.env,
  });
  const logs = options.logs;
  const deps = await createContainer(config, { logger: logs ? { write: (line) => logs.push(line) } : false });
  const workspace = options.workspace === undefined ? TEST_WORKSPACE : options.workspace;
  if (workspace) await seedWorkspace(deps.store.db, parseWorkspace(structuredClone(workspace)));
  const app = await buildServer(deps);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  async function api(method: string, path: string, o: ApiOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? KEYS.full : o.key;
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let body: string | Buffer | undefined = o.raw;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${address}${path}`, {
      method,
      headers,
      body: body as BodyInit | undefined,
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  return {
    baseUrl: address,
    deps,
    app,
    api,
    async close() {
      await app.close();
      await deps.close();
      await testDb.drop();
    },
  };
}

/** Rows in the tables a rejected request must not touch. */
export async function countRows(
  deps: AppDeps,
): Promise<{ calls: number; transcripts: number; jobs: number }> {
  const db = deps.store.db;
  const count = async (table: 'calls' | 'call_transcripts' | 'scoring_jobs') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    calls: await count('calls'),
    transcripts: await count('call_transcripts'),
    jobs: await count('scoring_jobs'),
  };
}
