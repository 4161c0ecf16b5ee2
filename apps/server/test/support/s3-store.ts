/*
 * An S3 store for the export tests: s3rver (a real S3-compatible HTTP server)
 * on a free port of 127.0.0.1, with ListMultipartUploads and
 * AbortMultipartUpload (s3rver-multipart.ts), one bucket, its objects and
 * parts in a temporary directory of its own; the EXPORT_S3_* settings and an
 * S3 client that reach it.
 */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { freePort } from '../../../../scripts/free-port.mjs';
import { withMultipartListing } from './s3rver-multipart.js';

export const S3_BUCKET = 'trialwear-exports';

export interface S3Store {
  endpoint: string;
  /** Where s3rver keeps the bucket's objects and received parts. */
  dir: string;
  /** The SDK client configuration that reaches the store (path style, s3rver's credentials). */
  clientConfig: S3ClientConfig;
  /** A client of the test's own (listing, uploads made by hand). */
  client: S3Client;
  /** The app's settings for the store: EXPORT_S3_BUCKET, _ENDPOINT, _REGION and the two credentials, then `more`. */
  env: (more?: Record<string, string>) => Record<string, string>;
  /** Stops s3rver and removes its directory. */
  close: () => Promise<void>;
}

/** Starts s3rver with the bucket S3_BUCKET; its directory's name starts with `tmpPrefix`. */
export async function s3Store(tmpPrefix = 'tw-s3rver-'): Promise<S3Store> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  const port = await freePort();
  const s3rver = withMultipartListing(
    new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: S3_BUCKET, configs: [] }],
    }),
  );
  await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const clientConfig: S3ClientConfig = {
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  };
  return {
    endpoint,
    dir,
    clientConfig,
    client: new S3Client(clientConfig),
    env: (more = {}) => ({
      EXPORT_S3_BUCKET: S3_BUCKET,
      EXPORT_S3_ENDPOINT: endpoint,
      EXPORT_S3_REGION: 'us-east-1',
      EXPORT_S3_ACCESS_KEY_ID: 'S3RVER',
      EXPORT_S3_SECRET_ACCESS_KEY: 'S3RVER',
      ...more,
    }),
    close: async () => {
      // The SDK keeps connections alive: close them, or close() waits for their timeout.
      (s3rver as unknown as { httpServer?: http.Server }).httpServer?.closeAllConnections();
      await s3rver.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
