/**
 * The recording-store port: where recording bytes live. Embedded default: files on disk behind HMAC-signed upload
 * URLs (disk.ts); scale-out: an S3-compatible bucket with presigned PUT URLs (s3.ts). API clients always upload
 * straight to `createUpload`'s URL, so the interface never carries the bytes of their uploads; only the web
 * application's own form hands bytes to `writeUpload`.
 */

export interface UploadTarget {
  url: string;
  method: 'PUT';
  /** Headers the client must send exactly (they are bound by the signature). */
  headers: Record<string, string>;
  /** When the URL stops working; may be slightly earlier than requested (whole seconds). */
  expiresAt: Date;
}

/** The body of an upload did not have the signed length; nothing was stored. */
export class UploadLengthError extends Error {
  constructor(
    readonly expectedBytes: number,
    /** Bytes read before giving up: more than expected means reading stopped at the first excess chunk. */
    readonly receivedBytes: number,
  ) {
    super(
      receivedBytes > expectedBytes
        ? `Upload exceeds the signed size of ${expectedBytes} bytes`
        : `Upload ended after ${receivedBytes} of the signed ${expectedBytes} bytes`,
    );
    this.name = 'UploadLengthError';
  }
}

export interface RecordingStore {
  /** Which implementation: `disk` also needs the API's own upload route (recordings.routes.ts). */
  readonly kind: 'disk' | 's3';
  /** A URL the client PUTs the bytes to, valid until expiresAt, with the headers it must send exactly. */
  createUpload(input: {
    key: string;
    contentType: string;
    sizeBytes: number;
    expiresAt: Date;
  }): Promise<UploadTarget>;
  /**
   * Stores the bytes of `stream` under `key` when it holds exactly `expectedBytes`; rejects with UploadLengthError
   * otherwise, and nothing is stored. A reader never sees a partial object.
   */
  writeUpload(
    key: string,
    stream: NodeJS.ReadableStream,
    expectedBytes: number,
    contentType?: string,
  ): Promise<void>;
  /** Size of the stored object, or null when nothing was uploaded. */
  stat(key: string): Promise<{ sizeBytes: number } | null>;
  /**
   * Reads bytes for playback; `range` inclusive like HTTP Range. Rejects with an error whose `code` is `ENOENT`
   * when nothing is stored under `key`.
   */
  read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream>;
  /** Removes the object if present. */
  remove(key: string): Promise<void>;
  /** Releases connections, if the store holds any. */
  close?(): void;
}
