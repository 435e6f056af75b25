import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** Largest recording the contract accepts (CreateRecordingRequest.size_bytes). */
export const MAX_RECORDING_BYTES = 209_715_200;

/**
 * A recording to upload: a file path (or file: URL), the bytes, or a stream.
 * Streams cannot be replayed, so their upload is never retried.
 */
export type RecordingFile = string | URL | Uint8Array | ReadableStream<Uint8Array> | Readable;

/** A recording file whose exact size is known, with a way to (re)open its bytes. */
export interface ResolvedRecordingFile {
  size: number;
  /** A name to report as `filename` when the caller gave none (paths only). */
  filename: string | undefined;
  /** false for streams: the bytes can be sent once only. */
  replayable: boolean;
  open(): Uint8Array | ReadableStream<Uint8Array>;
}

const resolvedFiles = new WeakSet<object>();

/** true for the objects `resolveRecordingFile` returns. */
export function isResolvedRecordingFile(x: unknown): x is ResolvedRecordingFile {
  return typeof x === 'object' && x !== null && resolvedFiles.has(x);
}

function mark(file: ResolvedRecordingFile): ResolvedRecordingFile {
  resolvedFiles.add(file);
  return file;
}

function isWebStream(x: unknown): x is ReadableStream<Uint8Array> {
  return typeof x === 'object' && x !== null && typeof (x as ReadableStream).getReader === 'function';
}

function isNodeReadable(x: unknown): x is Readable {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as Readable).pipe === 'function' &&
    typeof (x as Readable)[Symbol.asyncIterator] === 'function'
  );
}

function sizeMismatch(expected: number, seen: number): Error {
  return new RangeError(`recording stream produced ${seen} bytes but its size was given as ${expected}`);
}

/** Passes the stream through, failing it if it yields more or fewer bytes than `expected`. */
function enforceLength(stream: ReadableStream<Uint8Array>, expected: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        // Fail early: an oversized body would otherwise be cut off by the HTTP layer.
        if (seen > expected) controller.error(sizeMismatch(expected, seen));
        else controller.enqueue(chunk);
      },
      flush(controller) {
        if (seen !== expected) controller.error(sizeMismatch(expected, seen));
      },
    }),
  );
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.byteLength;
    if (total > MAX_RECORDING_BYTES) {
      throw new RangeError(`recording is larger than ${MAX_RECORDING_BYTES} bytes (the contract's limit)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Finds the exact byte size of a recording (the upload must declare it up front and send it
 * as Content-Length: presigned URLs refuse chunked bodies). A stream without a `size` is read
 * into memory, up to the 200 MB limit.
 */
export async function resolveRecordingFile(
  file: RecordingFile,
  size?: number,
): Promise<ResolvedRecordingFile> {
  return mark(await resolve(file, size));
}

async function resolve(file: RecordingFile, size?: number): Promise<ResolvedRecordingFile> {
  if (typeof file === 'string' || file instanceof URL) {
    const path = file instanceof URL ? fileURLToPath(file) : file;
    const info = await stat(path);
    if (!info.isFile()) throw new TypeError(`recording path is not a file: ${path}`);
    return {
      size: info.size,
      filename: basename(path),
      replayable: true,
      open: () => Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
    };
  }
  if (file instanceof Uint8Array) {
    return { size: file.byteLength, filename: undefined, replayable: true, open: () => file };
  }
  if (isWebStream(file) || isNodeReadable(file)) {
    if (size === undefined) {
      const bytes = await readAll(isWebStream(file) ? toAsyncIterable(file) : file);
      return { size: bytes.byteLength, filename: undefined, replayable: true, open: () => bytes };
    }
    if (!Number.isSafeInteger(size) || size < 0)
      throw new TypeError(`size must be a non-negative integer, got ${size}`);
    const web = isWebStream(file) ? file : (Readable.toWeb(file) as ReadableStream<Uint8Array>);
    let opened = false;
    return {
      size,
      filename: undefined,
      replayable: false,
      open: () => {
        if (opened) throw new TypeError('a recording stream can be uploaded once only');
        opened = true;
        return enforceLength(web, size);
      },
    };
  }
  throw new TypeError('recording file must be a path, a URL, a Buffer/Uint8Array or a readable stream');
}

async function* toAsyncIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
