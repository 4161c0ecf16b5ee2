/*
 * Reading an export ZIP in the job tests: the entries by name (inflated and
 * CRC-checked by yauzl, support/zip.ts), and a CSV parsed by its header.
 */
import { unzip } from './support/zip.js';

/** The ZIP's entries by name. */
export async function zipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Map((await unzip(zip)).map((e) => [e.name, e.data]));
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of header → value. */
export function parseCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else field += c;
  }
  if (field !== '' || record.length) endRecord();
  const [header = [], ...body] = records;
  return { header, rows: body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) };
}
