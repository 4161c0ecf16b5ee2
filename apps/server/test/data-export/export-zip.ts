/*
 * Reading an export ZIP in the tests: the entries from the central directory
 * (ZIP64 sizes and offsets included), each inflated and checked against its
 * CRC-32, so a truncated or corrupt file fails the test. And the CSV parsed
 * by its header.
 */
import zlib from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export function unzip(zip: Buffer): Map<string, Buffer> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--)
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new Error('not a ZIP: no end of central directory');
  let count = zip.readUInt16LE(eocd + 10);
  let cdOffset = zip.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff) {
    const locator = eocd - 20;
    if (zip.readUInt32LE(locator) !== 0x07064b50) throw new Error('ZIP64 locator missing');
    const z64 = Number(zip.readBigUInt64LE(locator + 8));
    count = Number(zip.readBigUInt64LE(z64 + 32));
    cdOffset = Number(zip.readBigUInt64LE(z64 + 48));
  }
  const out = new Map<string, Buffer>();
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    let csize = zip.readUInt32LE(p + 20);
    let size = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    let local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    // ZIP64 extra field (0x0001): the fields that are 0xffffffff above, in order.
    let e = p + 46 + nameLen;
    const end = e + extraLen;
    while (e + 4 <= end) {
      const id = zip.readUInt16LE(e);
      const len = zip.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) (size = Number(zip.readBigUInt64LE(q))), (q += 8);
        if (csize === 0xffffffff) (csize = Number(zip.readBigUInt64LE(q))), (q += 8);
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + csize);
    const data = method === 0 ? Buffer.from(raw) : zlib.inflateRawSync(raw);
    if (data.length !== size) throw new Error(`${name}: size ${data.length}, expected ${size}`);
    if (zlib.crc32(data) >>> 0 !== crc >>> 0) throw new Error(`${name}: CRC mismatch`);
    out.set(name, data);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of header → value. */
export function parseCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length) record.push(field), records.push(record);
  const [header = [], ...body] = records;
  return { header, rows: body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) };
}
