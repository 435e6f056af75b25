/** The OpenAPI document without a database: `callscore openapi` builds the routes but never serves them. */
import type { Config } from '../config.js';
import type { AppDeps } from '../container.js';
import { buildServer } from './server.js';

/** A dependency that must not be touched while only the document is generated. */
function unused<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      throw new Error(`${name}.${String(property)} is not available while generating the OpenAPI document`);
    },
  });
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
