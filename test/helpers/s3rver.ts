/**
 * startS3rver: a real S3-compatible server (s3rver, from npm; Debian has none) on 127.0.0.1 at an ephemeral port,
 * storing into a temporary folder, with one bucket. While it runs, the AWS SDK's default credential chain finds
 * s3rver's built-in key in the environment (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY) and never asks an instance
 * metadata endpoint; close() restores the environment and removes the folder.
 *
 * What s3rver checks and what it does not: it checks the access key id and the expiry of presigned URLs, but it does
 * not verify SigV4 signatures ("Signature version 4 calculation is unimplemented" in its authentication
 * middleware), so a changed signature, Content-Type or Content-Length is accepted. Tests that need the signature's
 * verdict use `verifyPresignedPut` (test/helpers/sigv4.ts) and say so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's built-in account. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  region: string;
  /** Where s3rver keeps objects (one folder per bucket). */
  directory: string;
  /** RECORDINGS_STORE=s3 settings for the app's environment. */
  env: Record<string, string>;
  /** Stops the server only (idempotent): the environment stays, so clients fail to connect rather than look elsewhere. */
  stop(): Promise<void>;
  /** Stops the server, restores the environment and removes the folder. */
  close(): Promise<void>;
}

const ENV_KEYS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_EC2_METADATA_DISABLED'] as const;

export async function startS3rver(bucket = 'callscore-recordings'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  const endpoint = `http://127.0.0.1:${address.port}`;
  const region = 'us-east-1';
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= server.close());
  return {
    endpoint,
    bucket,
    region,
    directory,
    env: { RECORDINGS_STORE: 's3', S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: region },
    stop,
    async close() {
      await stop();
      for (const key of ENV_KEYS) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
