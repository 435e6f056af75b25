/**
 * The recording-store port: where recording bytes live. Embedded default: files on disk behind HMAC-signed upload
 * URLs (disk.ts); scale-out: an S3-compatible bucket with presigned PUT URLs. The client always uploads straight
 * to `createUpload`'s URL, so the interface never carries the bytes of an upload itself.
 */

export interface UploadTarget {
  url: string;
  method: 'PUT';
  /** Headers the client must send exactly (they are bound by the signature). */
  headers: Record<string, string>;
  /** When the URL stops working; may be slightly earlier than requested (whole seconds). */
  expiresAt: Date;
}

export interface RecordingStore {
  /** A URL the client PUTs the bytes to, valid until expiresAt, with the headers it must send exactly. */
  createUpload(input: {
    key: string;
    contentType: string;
    sizeBytes: number;
    expiresAt: Date;
  }): Promise<UploadTarget>;
  /** Size of the stored object, or null when nothing was uploaded. */
  stat(key: string): Promise<{ sizeBytes: number } | null>;
  /**
   * Reads bytes for playback; `range` inclusive like HTTP Range. Rejects with an error whose `code` is `ENOENT`
   * when nothing is stored under `key`.
   */
  read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream>;
  /** Removes the object if present. */
  remove(key: string): Promise<void>;
}
