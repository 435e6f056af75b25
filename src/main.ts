/**
 * The `callscore` CLI: one command per run, each built from the config through the container.
 *   serve [--no-worker] | worker | migrate | seed FILE.json | openapi
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Worker } from 'node:worker_threads';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createContainer, createInferrer, createScorer, openStore } from './container.js';
import { buildServer } from './http/server.js';
import { createDemoWorkspace, isEmptyDatabase, type DemoCredentials } from './seed/demo.js';
import { parseWorkspace, seedWorkspace, unknownWorkspaceFields, WorkspaceError } from './seed/workspace.js';
import { createWorker } from './scoring/worker.js';
import { startModuleWorker } from './thread-rpc.js';

const USAGE = `Usage: callscore <command>

Commands:
  serve [--no-worker]   API, web application and scoring worker on http://HOST:PORT
  worker                a scoring worker on its own (run several for more throughput)
  migrate               create the database if needed and apply pending migrations
  seed FILE.json        load a workspace description (idempotent)
  openapi               print the OpenAPI 3.1 document
  infer FILE.jsonl      rep speaker and call type for each call of a file (JSON lines out)
  backfill FILE|FOLDER  send past calls to the API at a safe pace (callscore backfill --help)

Configuration comes from environment variables (see README.md).`;

function printDemo(config: Config, demo: DemoCredentials): void {
  console.log(`
  Demo workspace created. These secrets are shown only once:

    Sign in:   ${config.publicAppBaseUrl}/login
               ${demo.adminEmail} (admin), ${demo.managerEmail}, ${demo.repEmail}
    Password:  ${demo.password}
    API key:   ${demo.apiKey}

  Try it:
    curl -s ${config.publicApiBaseUrl}/calls -H "Authorization: Bearer ${demo.apiKey}" \\
      -H "Content-Type: application/json" -d @examples/call.json
`);
}

async function serve(config: Config, noWorker: boolean): Promise<void> {
  const deps = await createContainer(config);
  // Every API request passes the rate limits: a Redis that does not answer would turn them all into 503s.
  await deps.limiter.ping().catch(() => {
    throw new ConfigError(
      'Cannot reach Redis at REDIS_URL: is Redis running and the URL right? Unset REDIS_URL to keep rate limits in this process.',
    );
  });
  const app = await buildServer(deps);
  const scoring = noWorker || config.worker === 'off' ? null : startScoringThread(config);
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    // The worker finishes or releases its job first, while the database is still open.
    await scoring?.stop();
    await app.close();
    await deps.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Nothing to serve: the scoring thread and the database must not keep the process alive.
    await scoring?.stop();
    await app.close();
    await deps.close();
    throw new ListenError(config, error as NodeJS.ErrnoException);
  }
  const worker = noWorker || config.worker === 'off' ? 'off' : 'inline';
  console.log(`Callscore is running (${config.serviceEnv}, ${deps.store.dialect}, worker ${worker}).
  Web app:  ${config.publicAppBaseUrl}/
  API:      ${config.publicApiBaseUrl}  (contract: ${config.publicApiBaseUrl}/openapi.json)`);
  // The demo is for zero set-up trials: only on an empty embedded database unless DEMO=true asks for it. Made once
  // the port is ours, so its one-time secrets are never printed above a start-up failure.
  const wantDemo = config.demo ?? !config.databaseUrl;
  if (wantDemo && (await isEmptyDatabase(deps.store.db)))
    printDemo(config, await createDemoWorkspace(deps.store.db));
}

/** The scoring worker in a worker_thread (only from the compiled dist/), restarted if it dies. */
function startScoringThread(config: Config): { stop(): Promise<void> } {
  createScorer(config); // an unknown SCORER fails here, not in a restart loop
  let current: Worker | null = null;
  let stopping = false;
  const spawn = () => {
    const thread = startModuleWorker('./scoring/worker-thread', import.meta.url, { config });
    thread.on('error', (error) => console.error('Scoring worker crashed:', error));
    thread.on('exit', (code) => {
      if (current === thread) current = null;
      if (!stopping) {
        console.error(`Scoring worker exited (code ${code}); restarting in 5 s.`);
        setTimeout(() => !stopping && spawn(), 5_000).unref();
      }
    });
    current = thread;
  };
  spawn();
  return {
    async stop() {
      stopping = true;
      const thread = current;
      if (!thread) return;
      await new Promise<void>((resolve) => {
        // The worker's own grace period is 10 s; do not hang the shutdown beyond it.
        const timer = setTimeout(() => {
          console.error('Scoring worker did not stop within 15 s; ending it.');
          void thread.terminate().then(() => resolve());
        }, 15_000);
        thread.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        thread.postMessage({ type: 'stop' });
      });
    },
  };
}

/** `callscore worker`: a scoring worker as its own process; several may run against one database. */
async function workerCommand(config: Config): Promise<void> {
  const store = await openStore(config);
  const logger = pino({
    level: config.logLevel,
    base: { component: 'scoring-worker', env: config.serviceEnv },
  });
  const worker = createWorker({ store, scorer: createScorer(config), config, logger });
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await worker.stop();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  worker.start();
  console.log(`Scoring worker started (process ${process.pid}, ${store.dialect}, scorer ${config.scorer}).`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // A reader that stops early (`callscore infer … | head`) is not an error: stop quietly, as Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
  // backfill parses its own flags and needs no database: it speaks HTTP to the API.
  if (command === 'backfill') return (await import('./backfill/cli.js')).backfillCommand(rest, process.env);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { 'no-worker': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    // A usage error, like an unknown command: exit code 2 with the usage, not a stack trace.
    console.error(`${(error as Error).message.split('. ')[0]}.\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (!command || command === 'help' || command === '--help' || command === '-h' || values.help) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await serve(config, values['no-worker'] ?? false);
      return -1; // keeps running
    case 'worker':
      await workerCommand(config);
      return -1; // keeps running
    case 'migrate': {
      const store = await openStore(config);
      await store.close();
      console.log(`Database is up to date (${store.dialect}).`);
      return 0;
    }
    case 'seed': {
      const file = positionals[0];
      if (!file) {
        console.error('Usage: callscore seed FILE.json');
        return 2;
      }
      const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      const workspace = parseWorkspace(raw);
      const ignored = unknownWorkspaceFields(raw);
      if (ignored.length)
        console.error(`Warning: ignoring fields the workspace format does not know: ${ignored.join(', ')}`);
      const store = await openStore(config);
      try {
        const s = await seedWorkspace(store.db, workspace);
        console.log(
          `Seeded ${s.accounts} account(s), ${s.teams} team(s), ${s.users} user(s), ${s.scorecards} scorecard(s), ${s.apiKeys} API key(s).`,
        );
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'infer': {
      const file = positionals[0];
      if (!file) {
        console.error(
          'Usage: callscore infer FILE.jsonl   (one call per line: {"id", "segments", "participants"?, "rep"?})',
        );
        return 2;
      }
      const { inferFile } = await import('./infer/infer-file.js');
      const { failed } = await inferFile(file, createInferrer(config));
      return failed > 0 ? 1 : 0;
    }
    case 'openapi': {
      const { printOpenApi } = await import('./http/openapi-document.js'); // no database needed
      process.stdout.write(`${JSON.stringify(await printOpenApi(config), null, 2)}\n`);
      return 0;
    }
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

/** `serve` could not open its port: the address, not the database, is at fault. */
class ListenError extends Error {
  constructor(config: Config, cause: NodeJS.ErrnoException) {
    super(
      cause.code === 'EADDRINUSE'
        ? `Port ${config.port} is already in use: stop the other process or set PORT.`
        : `Cannot listen on ${config.host}:${config.port} (${cause.code ?? cause.message}): set HOST to an address of this machine (0.0.0.0 for all, 127.0.0.1 for this machine only) and PORT to a free port.`,
    );
  }
}

/** Start-up failures in words that say what to do next. */
function explain(error: unknown): string {
  if (error instanceof ConfigError || error instanceof WorkspaceError || error instanceof ListenError)
    return error.message;
  if (error instanceof SyntaxError) return `The file is not valid JSON: ${error.message}`;
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ENOENT' && e.path) return `No such file: ${e.path}`;
  if (['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'EEXIST'].includes(e.code ?? '') && e.path)
    return `Cannot create or write ${e.path} (${e.code}): set DATA_DIR to a directory this user can write.`;
  if (
    e.code === 'ECONNREFUSED' ||
    e.code === 'ENOTFOUND' ||
    /timeout exceeded when trying to connect/.test(e.message ?? '')
  ) {
    return 'Cannot reach the database named by DATABASE_URL: is PostgreSQL running and the URL right?';
  }
  return e.stack ?? String(error);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(explain(error));
    // exit now: a helper thread or an open handle left by the failure must not keep a failed start alive.
    process.exit(1);
  },
);
