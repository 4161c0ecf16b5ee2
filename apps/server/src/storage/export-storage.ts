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
 *   servers and workers share the files (s3-export-storage.ts).
 *
 * Keys are relative names such as `exports/42.zip` (export-key.ts).
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
import { finished } from 'node:stream/promises';
import type { Config } from '../config.js';
import { checkExportKey, TEMP_SUFFIX } from './export-key.js';
import { makeDirectory } from './make-directory.js';
import { createS3ExportStorage } from './s3-export-storage.js';

export { checkExportKey } from './export-key.js';
export { createS3ExportStorage, type S3ExportStorageOptions } from './s3-export-storage.js';

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
