/**
 * Entry of the transcript digest thread (digest-thread.ts): answers each {id, turns} with the fingerprint and the
 * JSON to store, or with the error's message.
 */
import { parentPort } from 'node:worker_threads';
import { digestTranscript, type Turn } from './transcript.js';

parentPort!.on('message', ({ id, turns }: { id: number; turns: Turn[] }) => {
  try {
    parentPort!.postMessage({ id, ...digestTranscript(turns) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
