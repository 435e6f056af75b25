/**
 * Bounds the bytes of `POST /v1/calls` bodies being read and ingested at once (preParsing, before the body is
 * read; released when the response closes). Ingest hands work to threads (transcript digest, SQLite writer), so
 * the event loop goes back to reading other bodies meanwhile: without a bound, eight concurrent 1 MiB bodies
 * and their parsed copies and garbage raised the API's peak RSS from ~195 to 320–360 MB (docs/decisions.md §20).
 * Waiting requests stay in the socket buffers; their 413, 401 and 429 answers come before they wait.
 */
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';

export interface BodyBudget {
  /** Resolves when `bytes` fit; the returned function gives them back (safe to call twice). */
  acquire(bytes: number): Promise<() => void>;
}

export function createBodyBudget(limitBytes: number): BodyBudget {
  let inUse = 0;
  const waiting: { bytes: number; grant: () => void }[] = [];
  const grantWaiting = () => {
    while (waiting.length > 0 && inUse + waiting[0]!.bytes <= limitBytes) {
      const next = waiting.shift()!;
      inUse += next.bytes;
      next.grant();
    }
  };
  return {
    async acquire(bytes) {
      const size = Math.min(bytes, limitBytes);
      if (waiting.length === 0 && inUse + size <= limitBytes) inUse += size;
      else await new Promise<void>((grant) => waiting.push({ bytes: size, grant }));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse -= size;
        grantWaiting();
      };
    },
  };
}

/** The preParsing hook: a body without Content-Length (chunked) counts as the largest allowed. */
export function bodyBudgetHook(budget: BodyBudget, maxBodyBytes: number) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: RequestPayload) => {
    const declared = Number(request.headers['content-length']);
    const bytes =
      Number.isFinite(declared) && declared >= 0 ? Math.min(declared, maxBodyBytes) : maxBodyBytes;
    const release = await budget.acquire(bytes);
    // A client that left while waiting never gets a 'close' from its response: give the bytes back now.
    if (reply.raw.closed || request.raw.socket?.destroyed) release();
    else reply.raw.once('close', release);
    return payload;
  };
}
