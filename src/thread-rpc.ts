/**
 * Request/response over a worker_thread: each message carries an id, the thread answers `{id, result}` or
 * `{id, error: {message, code}}`. The thread starts on first use and is unref'd while idle (an idle helper thread
 * never keeps the process alive); if it dies, pending calls reject and the next call starts a new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type MessagePort } from 'node:worker_threads';

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Reply {
  id: number;
  result?: unknown;
  error?: { message: string; code?: string };
}

export interface ThreadRpc<Request, Result> {
  call(request: Request): Promise<Result>;
  /** Waits for nothing: pending calls reject, and the thread ends. */
  stop(): Promise<void>;
}

/** The answer to an error raised in the thread: its message, and its `code` (SQLITE_BUSY…) kept for callers. */
export class ThreadError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

export function createThreadRpc<Request, Result>(
  name: string,
  start: () => Worker,
): ThreadRpc<Request, Result> {
  let current: { worker: Worker; pending: Map<number, Pending> } | null = null;
  let nextId = 0;

  function ensure(): NonNullable<typeof current> {
    if (current) return current;
    const worker = start();
    const pending = new Map<number, Pending>();
    const thread = { worker, pending };
    const fail = (error: Error) => {
      if (current === thread) current = null;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    worker.on('message', (reply: Reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.error) p.reject(new ThreadError(`${name}: ${reply.error.message}`, reply.error.code));
      else p.resolve(reply.result);
      if (pending.size === 0) worker.unref();
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`${name} thread exited (code ${code})`)));
    worker.unref();
    current = thread;
    return thread;
  }

  return {
    call(request) {
      const { worker, pending } = ensure();
      const id = ++nextId;
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
        // Referenced while a call is pending, so work in flight keeps the process alive.
        worker.ref();
        try {
          worker.postMessage({ id, request });
        } catch (error) {
          pending.delete(id);
          if (pending.size === 0) worker.unref();
          reject(error as Error);
        }
      });
    },
    async stop() {
      const thread = current;
      current = null;
      if (thread) await thread.worker.terminate();
    },
  };
}

/**
 * Starts the module `relative` (written without extension, resolved from the caller's `import.meta.url`) in a
 * thread. From the compiled dist/ it is plain JS. From the sources (tests, tsx) the compiled twin in dist/ is
 * used when it exists (`npm ci` builds it): registering tsx inside the thread hung now and then when test
 * processes started threads at the same moment. Without a build, tsx compiles the entry in the thread.
 */
export function startModuleWorker(relative: string, from: string, workerData?: unknown): Worker {
  const extension = path.extname(fileURLToPath(from));
  const entry = new URL(`${relative}${extension}`, from);
  if (extension === '.js') return new Worker(entry, { workerData });
  const compiled = fileURLToPath(entry)
    .replace(`${path.sep}src${path.sep}`, `${path.sep}dist${path.sep}`)
    .replace(/\.ts$/, '.js');
  if (compiled !== fileURLToPath(entry) && fs.existsSync(compiled))
    return new Worker(compiled, { workerData });
  return new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`,
    { eval: true, workerData },
  );
}

/** The thread side: answers each `{id, request}` with `handle(request)`'s result or error. */
export function serveThreadRpc<Request>(port: MessagePort, handle: (request: Request) => unknown): void {
  port.on('message', ({ id, request }: { id: number; request: Request }) => {
    try {
      port.postMessage({ id, result: handle(request) });
    } catch (error) {
      const e = error as { message?: string; code?: unknown };
      const code = typeof e.code === 'string' ? e.code : undefined;
      port.postMessage({ id, error: { message: String(e.message ?? error), code } });
    }
  });
}
