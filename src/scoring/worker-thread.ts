/**
 * Entry of the scoring worker_thread started by `callscore serve`: scoring runs off the HTTP event loop. It opens
 * its own store from the config in workerData and stops on a {type:'stop'} message (finishing or releasing the job
 * in hand), then closes the store and ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { Config } from '../config.js';
import { createScorer, openStore } from '../container.js';
import { createWorker } from './worker.js';

export interface WorkerThreadData {
  config: Config;
}

const { config } = workerData as WorkerThreadData;
const logger = pino({
  level: config.logLevel,
  base: { component: 'scoring-worker', env: config.serviceEnv },
});
const store = await openStore(config);
const worker = createWorker({ store, scorer: createScorer(config), config, logger });

parentPort?.on('message', (message: { type?: string }) => {
  if (message?.type !== 'stop') return;
  void worker
    .stop()
    .catch((error: unknown) => logger.error({ err: error }, 'scoring worker stop failed'))
    .finally(async () => {
      await store.close();
      // Ends this thread only; a released job's model request still open would otherwise keep it alive.
      process.exit(0);
    });
});

worker.start();
console.log(`Scoring worker started (thread, ${store.dialect}, scorer ${config.scorer}).`);
