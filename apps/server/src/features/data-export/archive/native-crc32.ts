/*
 * yazl computes each entry's CRC-32 with buffer-crc32, a byte-at-a-time loop
 * in JavaScript (about 240 MB/s on the bench machine, on the main thread: an
 * eighth of the export's CPU). Node's zlib.crc32 computes the same function
 * in C, ten times faster. yazl calls `crc32.unsigned(buffer, previous)` on the
 * module it requires, so that one property of that very instance (resolved
 * from yazl's own location) is replaced, once, after checking on a sample
 * that both agree; if they did not, yazl keeps its own.
 */
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

type Crc32Module = { unsigned: (buf: Buffer, previous?: number) => number; nativeCrc32?: boolean };

const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
const crc32 = fromYazl('buffer-crc32') as Crc32Module;

export function useNativeCrc32(): boolean {
  if (crc32.nativeCrc32) return true;
  const sample = Buffer.from('participant_code,metric_key,local_date\nBENCH0001,steps,2026-01-01\n');
  const native = (buf: Buffer, previous = 0) => zlib.crc32(buf, previous);
  const js = crc32.unsigned;
  const agree =
    native(sample) === js(sample) &&
    native(sample.subarray(20), js(sample.subarray(0, 20))) === js(sample) &&
    native(Buffer.alloc(0)) === js(Buffer.alloc(0));
  if (!agree) return false;
  crc32.unsigned = native;
  crc32.nativeCrc32 = true;
  return true;
}
