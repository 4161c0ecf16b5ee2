/*
 * Reading an export ZIP in a test: every entry, in archive order, inflated
 * by yauzl (an independent implementation of the format, which also checks
 * each entry's CRC-32 and sizes).
 */
import { createHash } from 'node:crypto';
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export function unzip(zip: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      zip,
      { lazyEntries: true, strictFileNames: true, validateEntrySizes: true },
      (err, file) => {
        if (err || !file) return reject(err);
        const entries: ZipEntry[] = [];
        file.on('error', reject);
        file.on('end', () => resolve(entries));
        file.on('entry', (entry: yauzl.Entry) => {
          file.openReadStream(entry, (e, stream) => {
            if (e || !stream) return reject(e);
            const chunks: Buffer[] = [];
            stream.on('data', (c: Buffer) => chunks.push(c));
            stream.on('error', reject);
            stream.on('end', () => {
              entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
              file.readEntry();
            });
          });
        });
        file.readEntry();
      },
    );
  });
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A CSV of ours as lines (the last newline ends the last row). */
export const lines = (b: Buffer) => b.toString('utf8').split('\n').slice(0, -1);
