/*
 * TEMPORARY minimal archive writer, to the interface agreed with the
 * wt-export-archive branch, which owns this file (its streaming version with
 * COPY, ZIP64 and the benches replaces this one on merge). Enough for the job
 * and its tests: data CSVs (single-tab or one per metric), data_dictionary.csv
 * and manifest.json in a deflated ZIP with data descriptors.
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';
import { APP_VERSION } from '../../../version.js';

export interface ArchiveRequest {
  teamId: number;
  participantIds: number[];
  metricKeys: string[];
  startDate: string;
  endDate: string;
  mode: 'single-tab' | 'separate-tabs';
  jobParams: unknown;
}
export interface ArchiveResult {
  bytes: number;
  files: { name: string; rows: number; sha256: string }[];
}

const HEADER = [
  'participant_code',
  'metric_key',
  'local_date',
  'local_time',
  'utc_offset',
  'measured_at_utc',
  'value',
  'unit',
];

const csvCell = (v: unknown) => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const offsetText = (m: number | null) => {
  if (m === null) return '';
  const sign = m < 0 ? '-' : '+';
  const a = Math.abs(m);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
};

class ZipOut {
  private offset = 0;
  private entries: { name: Buffer; crc: number; csize: number; size: number; at: number }[] = [];
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly signal: AbortSignal,
  ) {}
  private async write(b: Buffer) {
    if (this.signal.aborted) throw new Error('aborted');
    this.offset += b.length;
    if (!this.out.write(b)) await new Promise<void>((r) => this.out.once('drain', r));
  }
  async file(name: string, chunks: AsyncIterable<Buffer>) {
    const nameBuf = Buffer.from(name, 'utf8');
    const at = this.offset;
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0808, 6); // data descriptor, UTF-8 names
    h.writeUInt16LE(8, 8);
    h.writeUInt16LE(nameBuf.length, 26);
    await this.write(Buffer.concat([h, nameBuf]));
    let crc = 0;
    let size = 0;
    let csize = 0;
    const deflate = zlib.createDeflateRaw({ level: 6 });
    const pending: Buffer[] = [];
    deflate.on('data', (c: Buffer) => pending.push(c));
    const flush = async () => {
      while (pending.length) {
        const c = pending.shift()!;
        csize += c.length;
        await this.write(c);
      }
    };
    for await (const chunk of chunks) {
      crc = zlib.crc32(chunk, crc);
      size += chunk.length;
      await new Promise<void>((r) => deflate.write(chunk, () => r()));
      await new Promise<void>((r) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => r()));
      await flush();
    }
    await new Promise<void>((r) => deflate.end(() => r()));
    await new Promise<void>((r) => (deflate.readableEnded ? r() : deflate.once('end', () => r())));
    await flush();
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(crc >>> 0, 4);
    d.writeUInt32LE(csize, 8);
    d.writeUInt32LE(size, 12);
    await this.write(d);
    this.entries.push({ name: nameBuf, crc, csize, size, at });
  }
  async finish() {
    const start = this.offset;
    for (const e of this.entries) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(0x0808, 8);
      c.writeUInt16LE(8, 10);
      c.writeUInt32LE(e.crc >>> 0, 16);
      c.writeUInt32LE(e.csize, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.at, 42);
      await this.write(Buffer.concat([c, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    return this.offset;
  }
}

interface Row {
  participant_code: string | null;
  participant_id: number;
  metric_key: string;
  local_date: string;
  local_time: string | null;
  utc_offset_minutes: number | null;
  measured_at: Date;
  value: number | null;
}

async function countRows(db: Db, req: ArchiveRequest): Promise<number> {
  const r = await db
    .selectFrom('device_readings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', req.teamId)
    .where('participant_id', 'in', req.participantIds)
    .where('metric_key', 'in', req.metricKeys)
    .where('local_date', '>=', req.startDate)
    .where('local_date', '<=', req.endDate)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function writeExportArchive(
  db: Db,
  req: ArchiveRequest,
  out: NodeJS.WritableStream,
  opts: { signal: AbortSignal; onProgress?: (p: { rowsWritten: number; rowsTotal: number }) => void },
): Promise<ArchiveResult> {
  const rowsTotal = await countRows(db, req);
  let rowsWritten = 0;
  opts.onProgress?.({ rowsWritten, rowsTotal });
  const units = new Map(
    (
      await db
        .selectFrom('metric_catalog')
        .select(['metric_key', 'metric_name', 'units', 'description', 'device_type'])
        .where('metric_key', 'in', req.metricKeys)
        .execute()
    ).map((m) => [m.metric_key, m]),
  );
  const zip = new ZipOut(out, opts.signal);
  const files: ArchiveResult['files'] = [];
  const groups = req.mode === 'single-tab' ? [req.metricKeys] : req.metricKeys.map((m) => [m]);
  for (const metrics of groups) {
    const name = req.mode === 'single-tab' ? 'data.csv' : `${metrics[0]}.csv`;
    const hash = createHash('sha256');
    let rows = 0;
    async function* chunks(): AsyncIterable<Buffer> {
      const head = Buffer.from(`${HEADER.join(',')}\n`, 'utf8');
      hash.update(head);
      yield head;
      let after: { pid: number; code: string; metric: string; at: Date } | null = null;
      for (;;) {
        const cursor = after;
        const page: Row[] = await db
          .selectFrom('device_readings as r')
          .innerJoin('participants as p', 'p.id', 'r.participant_id')
          .select([
            'p.participant_code',
            'r.participant_id',
            'r.metric_key',
            'r.local_date',
            'r.local_time',
            'r.utc_offset_minutes',
            'r.measured_at',
            'r.value',
          ])
          .where('r.team_id', '=', req.teamId)
          .where('r.participant_id', 'in', req.participantIds)
          .where('r.metric_key', 'in', metrics)
          .where('r.local_date', '>=', req.startDate)
          .where('r.local_date', '<=', req.endDate)
          .$if(cursor !== null, (q) =>
            q.where(
              sql<boolean>`(coalesce(p.participant_code, ''), r.participant_id, r.metric_key, r.measured_at) > (${cursor!.code}, ${cursor!.pid}, ${cursor!.metric}, ${cursor!.at})`,
            ),
          )
          .orderBy(sql`coalesce(p.participant_code, '')`)
          .orderBy('r.participant_id')
          .orderBy('r.metric_key')
          .orderBy('r.measured_at')
          .limit(5000)
          .execute();
        if (page.length === 0) return;
        const text = page
          .map((r) =>
            [
              r.participant_code ?? `#${r.participant_id}`,
              r.metric_key,
              r.local_date,
              r.local_time,
              offsetText(r.utc_offset_minutes),
              r.measured_at.toISOString(),
              r.value,
              units.get(r.metric_key)?.units ?? '',
            ]
              .map(csvCell)
              .join(','),
          )
          .join('\n');
        const buf = Buffer.from(`${text}\n`, 'utf8');
        hash.update(buf);
        rows += page.length;
        rowsWritten += page.length;
        opts.onProgress?.({ rowsWritten, rowsTotal });
        yield buf;
        const last = page[page.length - 1]!;
        after = {
          pid: last.participant_id,
          code: last.participant_code ?? '',
          metric: last.metric_key,
          at: last.measured_at,
        };
      }
    }
    await zip.file(name, chunks());
    files.push({ name, rows, sha256: hash.digest('hex') });
  }
  const dict = [
    'metric_key,metric_name,unit,description,source',
    ...req.metricKeys.map((k) => {
      const m = units.get(k);
      return [k, m?.metric_name, m?.units, m?.description, m?.device_type].map(csvCell).join(',');
    }),
  ].join('\n');
  const dictBuf = Buffer.from(`${dict}\n`);
  await zip.file(
    'data_dictionary.csv',
    (async function* () {
      yield dictBuf;
    })(),
  );
  files.push({
    name: 'data_dictionary.csv',
    rows: req.metricKeys.length,
    sha256: createHash('sha256').update(dictBuf).digest('hex'),
  });
  const manifest = {
    jobParams: req.jobParams,
    generated_at: new Date().toISOString(),
    product_version: APP_VERSION,
    files,
  };
  await zip.file(
    'manifest.json',
    (async function* () {
      yield Buffer.from(JSON.stringify(manifest, null, 2));
    })(),
  );
  const bytes = await zip.finish();
  return { bytes, files };
}
