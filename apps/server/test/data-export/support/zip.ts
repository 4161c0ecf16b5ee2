/*
 * Reading an export ZIP in a test: every entry, in archive order, inflated
 * by yauzl (an independent implementation of the format, which checks the
 * sizes), each entry's CRC-32 checked here.
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
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
              const data = Buffer.concat(chunks);
              // yauzl checks sizes, not the CRC-32: check it here.
              if (zlib.crc32(data) !== entry.crc32)
                return reject(new Error(`CRC-32 mismatch in ${entry.fileName}`));
              entries.push({ name: entry.fileName, data });
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
