/*
 * TEMPORARY minimal local-directory ExportStorage, to the interface agreed
 * with the wt-export-archive branch, which owns this file (its version, with
 * S3, replaces this one on merge). Content becomes visible under `key` only
 * on commit() (write to a temporary name, fsync, rename); abort() leaves nothing.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

export interface ExportStorage {
  /** Content becomes visible under `key` only on commit(); abort() leaves nothing. */
  createWriter(
    key: string,
  ): Promise<{ stream: NodeJS.WritableStream; commit(): Promise<{ size: number }>; abort(): Promise<void> }>;
  open(key: string): Promise<{ stream: NodeJS.ReadableStream; size: number } | null>;
  remove(key: string): Promise<void>;
}

export function createExportStorage(config: Config): ExportStorage {
  const root = path.join(config.dataDir, 'exports');
  const fileOf = (key: string) => {
    const file = path.resolve(root, key);
    if (!file.startsWith(`${root}${path.sep}`)) throw new Error('invalid storage key');
    return file;
  };
  return {
    async createWriter(key) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.partial`;
      const stream = fs.createWriteStream(tmp, { mode: 0o600 });
      const closed = new Promise<void>((resolve, reject) => {
        stream.on('close', resolve);
        stream.on('error', reject);
      });
      return {
        stream,
        async commit() {
          if (!stream.writableFinished) await new Promise<void>((r) => stream.end(r));
          await closed;
          const fh = await fs.promises.open(tmp, 'r');
          await fh.sync();
          await fh.close();
          await fs.promises.rename(tmp, file);
          return { size: (await fs.promises.stat(file)).size };
        },
        async abort() {
          stream.destroy();
          await closed.catch(() => {});
          await fs.promises.rm(tmp, { force: true });
        },
      };
    },
    async open(key) {
      const file = fileOf(key);
      try {
        const stat = await fs.promises.stat(file);
        return { stream: fs.createReadStream(file), size: stat.size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
  };
}
