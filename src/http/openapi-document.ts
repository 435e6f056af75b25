/** The OpenAPI document without a database: `callscore openapi` builds the routes but never serves them. */
import type { Config } from '../config.js';
import type { AppDeps } from '../container.js';
import { buildServer } from './server.js';

/**
 * A dependency that must not be used while only the document is generated. Reading its properties is allowed
 * (plugins may keep references at registration); calling anything throws.
 */
function unused<T extends object>(name: string): T {
  const target = () => {};
  return new Proxy(target, {
    get(_target, property) {
      if (property === 'then') return undefined; // not a promise
      return unused(`${name}.${String(property)}`);
    },
    apply() {
      throw new Error(`${name}() is not available while generating the OpenAPI document`);
    },
  }) as unknown as T;
}

export async function printOpenApi(config: Config): Promise<unknown> {
  const deps: AppDeps = {
    config,
    store: unused('store'),
    limiter: unused('limiter'),
    recordings: unused('recordings'),
    uploadSecret: Buffer.alloc(0),
    ingest: unused('ingest'),
    logger: false,
    close: async () => {},
  };
  const app = await buildServer(deps);
  await app.ready();
  const document = app.swagger();
  await app.close();
  return document;
}
