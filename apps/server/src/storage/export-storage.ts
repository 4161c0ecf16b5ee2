/*
 * Where export files live (issue #12 item 4), behind one small interface so
 * the job, the download route and the expiry job never know which:
 *
 * - a directory (default DATA_DIR/exports): a writer writes a temporary file
 *   beside the final one, and commit() fsyncs it, renames it into place and
 *   fsyncs the directory; abort() (or a crash: the temporary name is never
 *   the key) leaves nothing under the key, and the next writer for the same
 *   key removes a crashed attempt's temporary files;
 * - S3-compatible object storage when EXPORT_S3_BUCKET is set, so several
 *   servers and workers share the files: a streamed multipart upload
 *   (@aws-sdk/lib-storage), which S3 makes visible only on completion;
 *   abort() fails the upload, which aborts the multipart upload.
 *
 * Keys are relative names such as `exports/42.zip`: letters, digits, `._-`
 * and `/`, no `..`.
 *
 * A writer that dies (kill -9, a crash) leaves an unfinished write behind: a
 * temporary file, or an incomplete multipart upload that S3 keeps (and bills)
 * until it is aborted. listUnfinished() and removeUnfinished() let the expiry
 * job sweep those of jobs no longer running (issue 27).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  NoSuchKey,
  NoSuchUpload,
  NotFound,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config.js';
import { makeDirectory } from './make-directory.js';

export interface ExportWriter {
  stream: NodeJS.WritableStream;
  /** Ends the stream if the caller has not, and makes the content visible under the key. */
  commit(): Promise<{ size: number }>;
  /** Stops writing; nothing is left under the key (nor a temporary file, nor an unfinished upload). */
  abort(): Promise<void>;
}

/** A write that was never committed nor aborted: a temporary file, or an incomplete multipart upload. */
export interface UnfinishedWrite {
  /** The key it was writing (as given to createWriter). */
  key: string;
  /** Which one, for removeUnfinished(): the temporary file's name, or the upload id. */
  ref: string;
  /** The file's last write, or the upload's start: older than a lease, nobody is writing it. */
  since: Date;
  /** What it holds, where the store tells without more requests (a file's size; S3: null). */
  bytes: number | null;
}

export interface ExportStorage {
  /** Content becomes visible under `key` only on commit(); abort() leaves nothing. */
  createWriter(key: string): Promise<ExportWriter>;
  open(key: string): Promise<{ stream: NodeJS.ReadableStream; size: number } | null>;
  remove(key: string): Promise<void>;
  /** Every unfinished write in the store, whoever left it (the caller decides whose is orphaned). */
  listUnfinished(): Promise<UnfinishedWrite[]>;
  /** Removes it (already gone: not an error). */
  removeUnfinished(write: UnfinishedWrite): Promise<void>;
}

const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
const TEMP_SUFFIX = '.partial';

export function checkExportKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..') || key.endsWith(TEMP_SUFFIX))
    throw new Error(`invalid export storage key: ${JSON.stringify(key)}`);
  return key;
}

export function createExportStorage(config: Config): ExportStorage {
  if (config.EXPORT_S3_BUCKET) {
    return createS3ExportStorage({
      bucket: config.EXPORT_S3_BUCKET,
      prefix: config.EXPORT_S3_PREFIX ?? '',
      client: {
        region: config.EXPORT_S3_REGION ?? 'us-east-1',
        ...(config.EXPORT_S3_ENDPOINT ? { endpoint: config.EXPORT_S3_ENDPOINT } : {}),
        forcePathStyle: config.EXPORT_S3_FORCE_PATH_STYLE ?? Boolean(config.EXPORT_S3_ENDPOINT),
        ...(config.EXPORT_S3_ACCESS_KEY_ID && config.EXPORT_S3_SECRET_ACCESS_KEY
          ? {
              credentials: {
                accessKeyId: config.EXPORT_S3_ACCESS_KEY_ID,
                secretAccessKey: config.EXPORT_S3_SECRET_ACCESS_KEY,
              },
            }
          : {}),
      },
    });
  }
  return createDirectoryExportStorage(config.EXPORT_DIR ?? path.join(config.dataDir, 'exports'));
}

// --- directory -------------------------------------------------------------

async function fsyncPath(p: string): Promise<void> {
  const handle = await fsp.open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function createDirectoryExportStorage(root: string): ExportStorage {
  const file = (key: string) => path.join(root, ...checkExportKey(key).split('/'));
  return {
    async createWriter(key) {
      const target = file(key);
      const dir = path.dirname(target);
      await makeDirectory(dir);
      // A crashed attempt at this key left its temporary file: it is never visible, and is removed now.
      const base = path.basename(target);
      for (const name of await fsp.readdir(dir)) {
        if (name.startsWith(`${base}.`) && name.endsWith(TEMP_SUFFIX))
          await fsp.rm(path.join(dir, name), { force: true });
      }
      const temp = `${target}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
      const stream = fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 });
      let state: 'open' | 'committed' | 'aborted' = 'open';
      // An error before commit/abort is reported by them; keep it from being unhandled. A failed
      // write names no file (ENOSPC, write): name the temporary file, so the log says where.
      stream.on('error', (err: NodeJS.ErrnoException) => {
        err.path ??= temp;
      });
      return {
        stream,
        async commit() {
          if (state !== 'open') throw new Error(`export writer already ${state}`);
          if (!stream.writableEnded) stream.end();
          await finished(stream);
          await fsyncPath(temp);
          await fsp.rename(temp, target);
          await fsyncPath(dir);
          state = 'committed';
          return { size: (await fsp.stat(target)).size };
        },
        async abort() {
          if (state !== 'open') return;
          state = 'aborted';
          stream.destroy();
          await finished(stream).catch(() => {});
          await fsp.rm(temp, { force: true });
        },
      };
    },
    async open(key) {
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file(key), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      try {
        const { size } = await handle.stat();
        // The stream closes the handle at its end or when destroyed.
        return { stream: handle.createReadStream({ highWaterMark: 1024 * 1024 }), size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },
    async remove(key) {
      await fsp.rm(file(key), { force: true });
    },
    async listUnfinished() {
      const found: UnfinishedWrite[] = [];
      for (const rel of await filesUnder(root)) {
        const m = TEMP_NAME.exec(rel);
        if (!m) continue;
        const stat = await fsp.stat(path.join(root, ...rel.split('/'))).catch(() => null);
        // Gone meanwhile: its writer committed or aborted it.
        if (stat) found.push({ key: m[1]!, ref: rel, since: stat.mtime, bytes: stat.size });
      }
      return found;
    },
    async removeUnfinished(write) {
      const rel = write.ref;
      if (!TEMP_NAME.exec(rel) || rel.split('/').some((s) => s === '..' || s === '.' || s === ''))
        throw new Error(`not a temporary export file: ${JSON.stringify(rel)}`);
      await fsp.rm(path.join(root, ...rel.split('/')), { force: true });
    },
  };
}

/** `team-1/x.zip.0a1b2c3d4e5f.partial` → `team-1/x.zip`: the writer's temporary name for a key. */
const TEMP_NAME = /^(.+)\.[0-9a-f]+\.partial$/;

/** Every file under root, as `/`-separated paths relative to it (none when root does not exist yet). */
async function filesUnder(root: string, at = ''): Promise<string[]> {
  const entries = await fsp.readdir(path.join(root, at), { withFileTypes: true }).catch((err) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  });
  const files: string[] = [];
  for (const e of entries) {
    const rel = at ? `${at}/${e.name}` : e.name;
    if (e.isDirectory()) files.push(...(await filesUnder(root, rel)));
    else if (e.isFile()) files.push(rel);
  }
  return files;
}

// --- S3 --------------------------------------------------------------------

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
  const client = new S3Client({
    // Checksums only where S3 requires them: a streamed body then needs no
    // aws-chunked trailer, which S3-compatible stores do not all accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...opts.client,
  });
  const objectKey = (key: string) => `${opts.prefix ?? ''}${checkExportKey(key)}`;
  return {
    async createWriter(key) {
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
      try {
        // GetObject answers the length with the body: one request, and no race between a HEAD and the GET.
        const r = await client.send(new GetObjectCommand({ Bucket: opts.bucket, Key: objectKey(key) }));
        if (!r.Body) return null;
        return { stream: r.Body as Readable, size: Number(r.ContentLength ?? 0) };
      } catch (err) {
        if (err instanceof NoSuchKey || err instanceof NotFound) return null;
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
          return null;
        throw err;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: opts.bucket, Key: objectKey(key) }));
    },
    async listUnfinished() {
      const prefix = opts.prefix ?? '';
      const found: UnfinishedWrite[] = [];
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      for (;;) {
        const page = await client.send(
          new ListMultipartUploadsCommand({
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
      try {
        await client.send(
          new AbortMultipartUploadCommand({
            Bucket: opts.bucket,
            Key: objectKey(write.key),
            UploadId: write.ref,
          }),
        );
      } catch (err) {
        // Completed or aborted meanwhile.
        if (err instanceof NoSuchUpload) return;
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return;
        throw err;
      }
    },
  };
}
