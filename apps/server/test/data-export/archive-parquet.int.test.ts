/*
 * The Parquet export (issue #24 item 4, decision 042): the same request
 * written as CSV (separate tabs) and as Parquet over the archive world
 * (support/archive-world.ts: London across the spring DST change,
 * Kiritimati at +14:00, Los Angeles at -07:00, an intraday metric stored as
 * day rows, a reading with a fraction of a second, value_json, a reading
 * without a device), the Parquet files read back with hyparquet (another
 * implementation than the writer's) and every row turned into the CSV's text
 * and compared with the CSV file's lines, exactly; the column types; the
 * manifest's counts and hashes; row groups that span participants.
 */
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField, pgFloat8 } from '../../src/features/data-export/archive/csv-text.js';
import { DATA_COLUMNS } from '../../src/features/data-export/archive/readings-stream-repo.js';
import { writeExportArchive } from '../../src/features/data-export/archive/write-archive.js';
import { upsertReadings } from '../../src/features/readings/repo.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  type ArchiveWorld,
  archiveWorld,
  collect,
  DICTIONARY,
  HEADER,
  NOW,
  signal,
} from './support/archive-world.js';
import { lines, sha256, unzip } from './support/zip.js';

const METRICS = ['egv', 'heart_rate_intraday', 'sleep_stages', 'steps'] as const;
const US_PER_DAY = 86_400_000_000n;

const two = (n: bigint | number) => String(n).padStart(2, '0');
/** HH:MM:SS[.f…] of µs since midnight, as PostgreSQL writes a time (fraction trimmed). */
function timeText(us: bigint): string {
  const s = us / 1_000_000n;
  const fraction = us % 1_000_000n;
  const base = `${two(s / 3600n)}:${two((s / 60n) % 60n)}:${two(s % 60n)}`;
  return fraction === 0n ? base : `${base}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
}
/** The CSV's text of a Parquet row's fields (read raw: days, µs as bigint). */
function csvLine(row: Record<string, unknown>): string {
  const field = (name: (typeof DATA_COLUMNS)[number]): string => {
    const v = row[name];
    if (v === null || v === undefined) return '';
    switch (name) {
      case 'local_date':
        return new Date(Number(v) * 86_400_000).toISOString().slice(0, 10);
      case 'local_time':
        return timeText(v as bigint);
      case 'measured_at_utc': {
        const us = v as bigint;
        const day = us / US_PER_DAY;
        return `${new Date(Number(day) * 86_400_000).toISOString().slice(0, 10)}T${timeText(us - day * US_PER_DAY)}Z`;
      }
      case 'value':
      case 'display_value':
        return pgFloat8(v as number);
      default:
        return csvField(v as string);
    }
  };
  return DATA_COLUMNS.map(field).join(',');
}

async function readParquet(file: Buffer) {
  const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
  return {
    metadata: parquetMetadata(buffer),
    rows: await parquetReadObjects({
      file: buffer,
      // Raw numbers: a JavaScript Date would drop the microseconds.
      // JSON as its text: the CSV's is PostgreSQL's, and so must the Parquet file's be.
      parsers: {
        dateFromDays: (d: number) => d,
        timestampFromMicroseconds: (us: bigint) => us,
        jsonFromBytes: (b: Uint8Array) => new TextDecoder().decode(b),
      },
    }),
  };
}

describe('writeExportArchive, format parquet', () => {
  let t: TestApp;
  let w: ArchiveWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await archiveWorld(t);
  });
  afterAll(() => t.close());

  const archive = async (format: 'csv' | 'parquet', parquetGroupRows?: number) => {
    const progress: number[] = [];
    const zip = await collect((out) =>
      writeExportArchive(t.ctx.db, { ...w.request('separate-tabs'), format }, out, {
        signal: signal(),
        now: () => NOW,
        onProgress: (p) => progress.push(p.rowsWritten),
        parquetGroupRows,
      }),
    );
    return { entries: new Map((await unzip(zip)).map((e) => [e.name, e.data])), progress };
  };

  it.each([
    ['one row group per file', undefined],
    ['row groups of 2 rows, across participants', 2],
  ])("holds the CSV export's rows, value for value, in its order (%s)", async (_, groupRows) => {
    const csv = await archive('csv');
    const parquet = await archive('parquet', groupRows);
    expect([...parquet.entries.keys()]).toEqual([
      ...METRICS.map((m) => `${m}.parquet`),
      'data_dictionary.csv',
      'manifest.json',
    ]);
    const expected = w.rowsOf();
    let total = 0;
    for (const metric of METRICS) {
      const csvLines = lines(csv.entries.get(`${metric}.csv`)!);
      expect(csvLines).toEqual([HEADER, ...expected[metric]]);
      const { rows, metadata } = await readParquet(parquet.entries.get(`${metric}.parquet`)!);
      expect(rows.map(csvLine)).toEqual(csvLines.slice(1));
      expect(Number(metadata.num_rows)).toBe(csvLines.length - 1);
      total += rows.length;
      if (groupRows === 2 && rows.length > 2)
        expect(metadata.row_groups.map((g) => Number(g.num_rows))).toEqual(
          Array.from({ length: Math.ceil(rows.length / 2) }, (_, i) => Math.min(2, rows.length - i * 2)),
        );
    }
    // The DST day and the intraday metric are in it: London's 00:59 at +00:00, then 02:00 at +01:00.
    expect(total).toBe(9);
    expect(parquet.progress.at(-1)).toBe(total);
    // The dictionary is the CSV export's, byte for byte.
    expect(lines(parquet.entries.get('data_dictionary.csv')!)).toEqual(DICTIONARY);
    expect(parquet.entries.get('data_dictionary.csv')).toEqual(csv.entries.get('data_dictionary.csv'));

    const manifest = JSON.parse(parquet.entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.export.format).toBe('parquet');
    expect(manifest.columns).toEqual([...DATA_COLUMNS]);
    expect(Object.keys(manifest.parquet_types)).toEqual([...DATA_COLUMNS]);
    for (const f of manifest.files as { name: string; rows: number; bytes: number; sha256: string }[]) {
      const data = parquet.entries.get(f.name)!;
      expect(f.sha256).toBe(sha256(data));
      expect(f.bytes).toBe(data.length);
      if (f.name.endsWith('.parquet'))
        expect(f.rows).toBe(lines(csv.entries.get(f.name.replace(/parquet$/, 'csv'))!).length - 1);
    }
  });

  it('types the columns: DATE, TIME and TIMESTAMP (UTC, µs), DOUBLE, JSON, dictionary-encoded texts', async () => {
    const { entries } = await archive('parquet');
    const file = entries.get('heart_rate_intraday.parquet')!;
    expect(file.subarray(0, 4).toString('latin1')).toBe('PAR1');
    const { metadata } = await readParquet(file);
    const byName = Object.fromEntries(metadata.schema.slice(1).map((e) => [e.name, e]));
    expect(metadata.schema.slice(1).map((e) => e.name)).toEqual([...DATA_COLUMNS]);
    expect(byName.local_date).toMatchObject({ type: 'INT32', logical_type: { type: 'DATE' } });
    expect(byName.local_time).toMatchObject({
      type: 'INT64',
      logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: 'MICROS' },
    });
    expect(byName.measured_at_utc).toMatchObject({
      type: 'INT64',
      repetition_type: 'REQUIRED',
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
    });
    expect(byName.value).toMatchObject({ type: 'DOUBLE', repetition_type: 'OPTIONAL' });
    expect(byName.value_json).toMatchObject({
      type: 'BYTE_ARRAY',
      converted_type: 'JSON',
      logical_type: { type: 'JSON' },
    });
    for (const name of ['participant_code', 'metric_key', 'utc_offset', 'unit', 'device', 'source'])
      expect(byName[name]).toMatchObject({ type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } });
    const chunks = metadata.row_groups[0]!.columns;
    for (const name of ['participant_code', 'metric_key', 'device', 'source'])
      expect(chunks.find((c) => c.meta_data?.path_in_schema[0] === name)?.meta_data?.encodings).toContain(
        'RLE_DICTIONARY',
      );
  });

  it('distance and weight carry the miles and Lbs the pages show, in both formats (decision 044)', async () => {
    // Its own participant and metrics: no other test exports them.
    const p = await w.participant(w.teamId, w.trialId, 'units@secret.example', 'EXU001');
    const reading = (metric_key: string, utc: string, value: number) => ({
      participant_id: p,
      team_id: w.teamId,
      participant_device_id: null,
      metric_key,
      measured_at: new Date(utc),
      local_date: utc.slice(0, 10),
      local_time: utc.slice(11, 19),
      utc_offset_minutes: 0,
      value,
    });
    await upsertReadings(t.ctx.db, [
      reading('distance', '2026-03-28T00:00:00Z', 8.05),
      reading('weight', '2026-03-28T07:30:00Z', 70.3),
      reading('weight', '2026-03-29T07:30:00Z', 70.25),
    ]);
    const request = {
      ...w.request('separate-tabs'),
      participantIds: [p],
      metricKeys: ['distance', 'weight'],
    };
    const exported = async (format: 'csv' | 'parquet') => {
      const zip = await collect((out) =>
        writeExportArchive(t.ctx.db, { ...request, format }, out, { signal: signal(), now: () => NOW }),
      );
      return new Map((await unzip(zip)).map((e) => [e.name, e.data]));
    };
    const csv = await exported('csv');
    const parquet = await exported('parquet');
    // The stored km and kg stay as they were; the figures the Fitbit and Omron pages show follow.
    const expected = {
      distance: ['EXU001,distance,2026-03-28,00:00:00,+00:00,2026-03-28T00:00:00Z,8.05,km,,,,5,mi'],
      weight: [
        'EXU001,weight,2026-03-28,07:30:00,+00:00,2026-03-28T07:30:00Z,70.3,kg,,,,155,Lbs',
        'EXU001,weight,2026-03-29,07:30:00,+00:00,2026-03-29T07:30:00Z,70.25,kg,,,,154.9,Lbs',
      ],
    };
    for (const metric of ['distance', 'weight'] as const) {
      expect(lines(csv.get(`${metric}.csv`)!)).toEqual([HEADER, ...expected[metric]]);
      const { rows } = await readParquet(parquet.get(`${metric}.parquet`)!);
      expect(rows.map(csvLine)).toEqual(expected[metric]);
    }
    expect(lines(csv.get('data_dictionary.csv')!)).toContain(DICTIONARY.at(-1));
  });

  it('a metric without rows is a valid Parquet file of no rows', async () => {
    const zip = await collect((out) =>
      writeExportArchive(
        t.ctx.db,
        { ...w.request('single-tab'), format: 'parquet', startDate: '2026-03-01', endDate: '2026-03-02' },
        out,
        { signal: signal(), now: () => NOW },
      ),
    );
    const entries = new Map((await unzip(zip)).map((e) => [e.name, e.data]));
    for (const metric of METRICS) {
      const { rows, metadata } = await readParquet(entries.get(`${metric}.parquet`)!);
      expect(rows).toEqual([]);
      expect(metadata.schema.slice(1).map((e) => e.name)).toEqual([...DATA_COLUMNS]);
    }
  });
});
