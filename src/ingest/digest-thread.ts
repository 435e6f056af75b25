/**
 * The transcript's fingerprint and stored JSON, computed in a worker_thread: for a 1 MiB transcript they are
 * 5–8 ms of CPU (hashing and escaping long strings) that would otherwise block every other request on the HTTP
 * event loop; posting the turns there costs a tenth of that (docs/decisions.md §20). One thread per process.
 */
import { createThreadRpc, startModuleWorker } from '../thread-rpc.js';
import type { Turn, TranscriptDigest } from './transcript.js';

const thread = createThreadRpc<readonly Turn[], TranscriptDigest>('transcript digest', () =>
  startModuleWorker('./digest-worker', import.meta.url),
);

/** `digestTranscript(turns)` off the event loop. */
export function digestInThread(turns: readonly Turn[]): Promise<TranscriptDigest> {
  return thread.call(turns);
}
