/*
 * Export files in S3-compatible object storage (EXPORT_S3_BUCKET), so several
 * servers and workers share them: a streamed multipart upload
 * (@aws-sdk/lib-storage), which S3 makes visible only on completion; abort()
 * fails the upload, which aborts the multipart upload.
 *
 * The AWS SDK is loaded on the store's first call, not with the server: it
 * was a quarter of the server's module loading (~170 ms of every start of a
 * server, worker or CLI command), and a deployment without a bucket never
 * calls it.
 */
import { type Readable, Transform } from 'node:stream';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { checkExportKey } from './export-key.js';
import type { ExportStorage, UnfinishedWrite } from './export-storage.js';

/** The SDK's modules, imported once on first use. */
let sdkLoad: Promise<[typeof import('@aws-sdk/client-s3'), typeof import('@aws-sdk/lib-storage')]> | null =
  null;
const sdk = () => {
  sdkLoad ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return sdkLoad;
};

export interface S3ExportStorageOptions {
  bucket: string;
  /** Prepended to every key, e.g. 'trialwear/'. */
  prefix?: string;
  client: S3ClientConfig;
  /** Multipart part size (≥ 5 MiB) and parts in flight: the writer buffers at most their product. */
  partSize?: number;
  queueSize?: number;
}

export function createS3ExportStorage(opts: S3ExportStorageOptions): ExportStorage {
  let client: import('@aws-sdk/client-s3').S3Client | null = null;
  /** The SDK and this store's client, made on the first call. */
  const s3 = async () => {
    const [api, { Upload }] = await sdk();
    client ??= new api.S3Client({
      // Checksums only where S3 requires them: a streamed body then needs no
      // aws-chunked trailer, which S3-compatible stores do not all accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...opts.client,
    });
    return { api, Upload, client };
  };
  const objectKey = (key: string) => `${opts.prefix ?? ''}${checkExportKey(key)}`;
  return {
    async createWriter(key) {
      const { Upload, client } = await s3();
      let size = 0;
      // What the archive writes is the upload's body; counting on the way gives the size without a HEAD.
      const stream = new Transform({
        highWaterMark: 1024 * 1024,
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          cb(null, chunk);
        },
      });
      const upload = new Upload({
        client,
        params: { Bucket: opts.bucket, Key: objectKey(key), Body: stream, ContentType: 'application/zip' },
        partSize: opts.partSize ?? 8 * 1024 * 1024,
        queueSize: opts.queueSize ?? 2,
        leavePartsOnError: false,
      });
      let state: 'open' | 'committed' | 'aborted' = 'open';
      const done = upload.done();
      // An upload failing on its own (the store unreachable) fails the writer's stream, so the archive stops.
      done.catch((err) => {
        if (state === 'open') stream.destroy(err);
      });
      return {
        stream,
        async commit() {
          if (state !== 'open') throw new Error(`export writer already ${state}`);
          if (!stream.writableEnded) stream.end();
          await done;
          state = 'committed';
          return { size };
        },
        async abort() {
          if (state !== 'open') return;
          state = 'aborted';
          // A failing body fails the upload, which then aborts the multipart upload (if one was started).
          const reason = new Error('export aborted');
          stream.destroy(reason);
          await done.catch(() => {});
        },
      };
    },
    async open(key) {
      const { api, client } = await s3();
      try {
        // GetObject answers the length with the body: one request, and no race between a HEAD and the GET.
        const r = await client.send(new api.GetObjectCommand({ Bucket: opts.bucket, Key: objectKey(key) }));
        if (!r.Body) return null;
        return { stream: r.Body as Readable, size: Number(r.ContentLength ?? 0) };
      } catch (err) {
        if (err instanceof api.NoSuchKey || err instanceof api.NotFound) return null;
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
          return null;
        throw err;
      }
    },
    async remove(key) {
      const { api, client } = await s3();
      await client.send(new api.DeleteObjectCommand({ Bucket: opts.bucket, Key: objectKey(key) }));
    },
    async listUnfinished() {
      const { api, client } = await s3();
      const prefix = opts.prefix ?? '';
      const found: UnfinishedWrite[] = [];
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      for (;;) {
        const page = await client.send(
          new api.ListMultipartUploadsCommand({
            Bucket: opts.bucket,
            Prefix: prefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        for (const u of page.Uploads ?? []) {
          if (!u.Key?.startsWith(prefix) || !u.UploadId || !u.Initiated) continue;
          // The parts' sizes would take a ListParts per upload: counted as uploads only.
          found.push({ key: u.Key.slice(prefix.length), ref: u.UploadId, since: u.Initiated, bytes: null });
        }
        if (!page.IsTruncated) break;
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
      return found;
    },
    async removeUnfinished(write) {
      const { api, client } = await s3();
      try {
        await client.send(
          new api.AbortMultipartUploadCommand({
            Bucket: opts.bucket,
            Key: objectKey(write.key),
            UploadId: write.ref,
          }),
        );
      } catch (err) {
        // Completed or aborted meanwhile.
        if (err instanceof api.NoSuchUpload) return;
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return;
        throw err;
      }
    },
  };
}
