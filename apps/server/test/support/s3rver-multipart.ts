/*
 * s3rver, the S3 server of our tests, implements multipart uploads but not
 * their listing nor their abort: ListMultipartUploads answers NotImplemented
 * and AbortMultipartUpload MethodNotAllowed. The export storage's sweep of
 * incomplete uploads (issue 27) needs both, so they are added here as the S3
 * API reference describes them, in front of s3rver's own routes, after its
 * own signature check, over its own record of uploads (a directory per
 * upload id holding the key, the metadata and the parts):
 *
 * - ListMultipartUploads, GET /{bucket}?uploads: the bucket's incomplete
 *   uploads whose key starts with `prefix`, sorted by key and, for one key,
 *   by initiation time; `key-marker` / `upload-id-marker` continue after a
 *   previous page (uploads of keys after key-marker, and of key-marker itself
 *   after that upload), `max-uploads` (default and ceiling 1000) truncates
 *   the page and sets NextKeyMarker / NextUploadIdMarker. (No `delimiter`:
 *   NotImplemented, as s3rver answers what it lacks.)
 * - AbortMultipartUpload, DELETE /{bucket}/{key}?uploadId=…: 204 and the
 *   parts are gone; an unknown upload (or one of another key): 404 NoSuchUpload.
 *
 * Path-style requests only (forcePathStyle), as the tests make them.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type S3rver from 's3rver';

const fromS3rver = createRequire(createRequire(import.meta.url).resolve('s3rver'));
// s3rver's own pieces: its signature check and its errors.
const authentication = fromS3rver('./middleware/authentication') as () => Middleware;
const S3Error = fromS3rver('./models/error') as new (
  code: string,
  message?: string,
  detail?: Record<string, string>,
) => Error;

interface Ctx {
  method: string;
  path: string;
  params: { bucket: string; key?: string };
  query: Record<string, string | undefined>;
  state: { account?: { id: string; displayName: string } };
  app: {
    store: {
      getBucket(name: string): Promise<unknown>;
      getResourcePath(b: string, k: undefined, r: string): string;
    };
  };
  body: unknown;
  status: number;
}
type Middleware = (ctx: Ctx, next: () => Promise<unknown>) => Promise<unknown>;

interface Upload {
  key: string;
  uploadId: string;
  initiated: Date;
}

const XMLNS = { xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' };
const noSuchUpload = () =>
  new S3Error(
    'NoSuchUpload',
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
  );

async function uploadsOf(ctx: Ctx): Promise<Upload[]> {
  if (!(await ctx.app.store.getBucket(ctx.params.bucket)))
    throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', {
      BucketName: ctx.params.bucket,
    });
  const dir = ctx.app.store.getResourcePath(ctx.params.bucket, undefined, 'uploads');
  const ids = await fs.readdir(dir).catch(() => [] as string[]);
  const uploads: Upload[] = [];
  for (const uploadId of ids) {
    const keyFile = path.join(dir, uploadId, 'key');
    // Written once when the upload is initiated (parts go beside it): its time is the initiation's.
    const [key, stat] = await Promise.all([fs.readFile(keyFile, 'utf8'), fs.stat(keyFile)]).catch(() => []);
    if (key !== undefined && stat) uploads.push({ key, uploadId, initiated: stat.mtime });
  }
  return uploads.sort((a, b) =>
    a.key !== b.key
      ? Buffer.compare(Buffer.from(a.key), Buffer.from(b.key))
      : a.initiated.getTime() - b.initiated.getTime() || (a.uploadId < b.uploadId ? -1 : 1),
  );
}

const listMultipartUploads: Middleware = async (ctx) => {
  const q = ctx.query;
  if (q.delimiter) throw new S3Error('NotImplemented', 'A delimiter is not implemented here');
  const prefix = q.prefix ?? '';
  const keyMarker = q['key-marker'] ?? '';
  // Ignored without a key-marker (as S3 does).
  const uploadIdMarker = keyMarker ? (q['upload-id-marker'] ?? '') : '';
  const max = q['max-uploads'] === undefined ? 1000 : Number(q['max-uploads']);
  if (!Number.isInteger(max) || max < 0)
    throw new S3Error('InvalidArgument', 'Argument max-uploads must be an integer between 0 and 2147483647', {
      ArgumentName: 'max-uploads',
      ArgumentValue: String(q['max-uploads']),
    });
  let uploads = (await uploadsOf(ctx)).filter((u) => u.key.startsWith(prefix));
  if (keyMarker) {
    const at = uploadIdMarker
      ? uploads.findIndex((u) => u.key === keyMarker && u.uploadId === uploadIdMarker)
      : -1;
    uploads =
      at >= 0
        ? uploads.slice(at + 1)
        : uploads.filter(
            (u) =>
              u.key > keyMarker ||
              (uploadIdMarker !== '' && u.key === keyMarker && u.uploadId > uploadIdMarker),
          );
  }
  const page = uploads.slice(0, Math.min(max, 1000));
  const truncated = uploads.length > page.length;
  const last = page[page.length - 1];
  const owner = {
    ID: ctx.state.account?.id ?? '',
    DisplayName: ctx.state.account?.displayName ?? '',
  };
  ctx.body = {
    ListMultipartUploadsResult: {
      '@': XMLNS,
      Bucket: ctx.params.bucket,
      KeyMarker: keyMarker,
      UploadIdMarker: uploadIdMarker,
      NextKeyMarker: truncated && last ? last.key : '',
      NextUploadIdMarker: truncated && last ? last.uploadId : '',
      Prefix: prefix,
      MaxUploads: Math.min(max, 1000),
      IsTruncated: truncated,
      Upload: page.map((u) => ({
        Key: u.key,
        UploadId: u.uploadId,
        Initiator: owner,
        Owner: owner,
        StorageClass: 'STANDARD',
        Initiated: u.initiated.toISOString(),
      })),
    },
  };
};

const abortMultipartUpload: Middleware = async (ctx) => {
  const uploadId = ctx.query.uploadId ?? '';
  const found = (await uploadsOf(ctx)).find((u) => u.uploadId === uploadId && u.key === ctx.params.key);
  if (!found) throw noSuchUpload();
  const dir = ctx.app.store.getResourcePath(ctx.params.bucket, undefined, 'uploads');
  await fs.rm(path.join(dir, uploadId), { recursive: true, force: true });
  ctx.status = 204;
  ctx.body = null;
};

/** `/bucket`, `/bucket/` or `/bucket/key…` (path style): the bucket and the key, decoded. */
const PATH = /^\/([^/]+)(?:\/(.*))?$/;

/** Adds the two calls to this s3rver (before run()). */
export function withMultipartListing(server: S3rver): S3rver {
  const auth = authentication();
  const calls: Middleware = async (ctx, next) => {
    const m = PATH.exec(ctx.path);
    const bucket = m ? decodeURIComponent(m[1]!) : undefined;
    // `/bucket/` is the bucket (the SDK adds the slash).
    const key = m?.[2] ? decodeURIComponent(m[2]) : undefined;
    const call =
      bucket && ctx.method === 'GET' && key === undefined && 'uploads' in ctx.query
        ? listMultipartUploads
        : bucket && ctx.method === 'DELETE' && key !== undefined && 'uploadId' in ctx.query
          ? abortMultipartUpload
          : null;
    if (!call) return next();
    // Set only for the calls handled here: s3rver's router sets its own for the rest.
    ctx.params = { bucket: bucket!, ...(key !== undefined ? { key } : {}) };
    return auth(ctx, () => call(ctx, next));
  };
  // Before s3rver's router (the last middleware), after its logging, XML rendering and vhost handling.
  const stack = (server as unknown as { middleware: unknown[] }).middleware;
  stack.splice(stack.length - 1, 0, calls);
  return server;
}
