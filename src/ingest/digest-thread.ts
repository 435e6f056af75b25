/**
 * The transcript's fingerprint and stored JSON, computed in a worker_thread: for a 1 MiB transcript they are
 * 5–8 ms of CPU (hashing and escaping long strings) that would otherwise block every other request on the HTTP
 * event loop; posting the turns there costs a tenth of that (docs/decisions.md §20). One thread per process,
 * started on first use and unref'd; if it dies, pending digests fail (500) and the next one starts a new thread.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Turn, TranscriptDigest } from './transcript.js';

type Reply = { id: number; error?: string } & Partial<TranscriptDigest>;
interface Pending {
  resolve(digest: TranscriptDigest): void;
  reject(error: Error): void;
}

let thread: { worker: Worker; pending: Map<number, Pending> } | null = null;
let nextId = 0;

/** From the compiled dist/ the entry is plain JS; from the sources (tests, tsx) tsx compiles it in the thread. */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  const entry = new URL(`./digest-worker${path.extname(here)}`, import.meta.url);
  if (here.endsWith('.js')) return new Worker(entry);
  return new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`,
    { eval: true },
  );
}

function ensureThread(): NonNullable<typeof thread> {
  if (thread) return thread;
  const worker = startWorker();
  const pending = new Map<number, Pending>();
  const current = { worker, pending };
  const fail = (error: Error) => {
    if (thread === current) thread = null;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (reply.error !== undefined) p.reject(new Error(`transcript digest failed: ${reply.error}`));
    else p.resolve({ fingerprint: reply.fingerprint!, turnsJson: reply.turnsJson! });
    if (pending.size === 0) worker.unref();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`transcript digest thread exited (code ${code})`)));
  worker.unref();
  thread = current;
  return current;
}

/** `digestTranscript(turns)` off the event loop. */
export function digestInThread(turns: readonly Turn[]): Promise<TranscriptDigest> {
  const { worker, pending } = ensureThread();
  const id = ++nextId;
  return new Promise<TranscriptDigest>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Referenced while work is pending, so a digest in flight keeps the process alive.
    worker.ref();
    try {
      worker.postMessage({ id, turns });
    } catch (error) {
      pending.delete(id);
      if (pending.size === 0) worker.unref();
      reject(error as Error);
    }
  });
}
