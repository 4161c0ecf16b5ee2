/*
 * writeExportArchive on a real database (issue #12 item 3), what it writes:
 * readings of three participants (London across the spring DST change,
 * Kiritimati at +14:00, Los Angeles at -07:00) and one of another team
 * (support/archive-world.ts); both modes unzipped with yauzl; every CSV line
 * compared exactly (header, columns, order, the local-date range, offsets,
 * UTC instants, units, value_json, device, source); the manifest's counts and
 * SHA-256 against the extracted files; the data dictionary; no email or notes
 * anywhere; progress; ZIP64 records. Abort and the export storage:
 * archive-abort.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ArchiveRequest,
  writeExportArchive,
} from '../../src/features/data-export/archive/write-archive.js';
import { APP_VERSION } from '../../src/version.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  type ArchiveWorld,
  archiveWorld,
  collect,
  DICTIONARY,
  HEADER,
  NOW,
  SECRETS,
  signal,
} from './support/archive-world.js';
import { lines, sha256, unzip } from './support/zip.js';

describe('writeExportArchive', () => {
  let t: TestApp;
  let w: ArchiveWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await archiveWorld(t);
  });
  afterAll(() => t.close());
  const request = (mode: ArchiveRequest['mode']) => w.request(mode);

  it('single-tab: one data CSV in participant, metric, time order; dictionary; a manifest that proves it', async () => {
    const progress: { rowsWritten: number; rowsTotal: number }[] = [];
    let result: Awaited<ReturnType<typeof writeExportArchive>> | undefined;
    const zip = await collect(async (out) => {
      result = await writeExportArchive(t.ctx.db, request('single-tab'), out, {
        signal: signal(),
        onProgress: (p) => progress.push(p),
        now: () => NOW,
      });
    });
    expect(result?.bytes).toBe(zip.length);
    const entries = await unzip(zip);
    expect(entries.map((e) => e.name)).toEqual(['data.csv', 'data_dictionary.csv', 'manifest.json']);
    const byName = Object.fromEntries(entries.map((e) => [e.name, e.data]));

    const r = w.rowsOf();
    // B (EXA001), then A (EXA002), then C (no code, last); metrics by key within each.
    const expected = [
      HEADER,
      ...r.heart_rate_intraday.slice(0, 2),
      ...r.sleep_stages,
      ...r.steps.slice(0, 3),
      r.heart_rate_intraday[2]!,
      r.steps[3]!,
      ...r.egv,
    ];
    expect(lines(byName['data.csv']!)).toEqual(expected);
    expect(lines(byName['data_dictionary.csv']!)).toEqual(DICTIONARY);

    const manifest = JSON.parse(byName['manifest.json']!.toString('utf8'));
    expect(manifest).toMatchObject({
      product: 'TrialWear',
      product_version: APP_VERSION,
      generated_at: '2026-04-02T08:15:30.000Z',
      job_params: request('single-tab').jobParams,
      export: {
        mode: 'single-tab',
        start_date: '2026-03-28',
        end_date: '2026-03-30',
        metrics: ['egv', 'heart_rate_intraday', 'sleep_stages', 'steps'],
        participants: ['EXA001', 'EXA002', `#${w.ids.c}`],
      },
    });
    expect(manifest.files).toEqual([
      { name: 'data.csv', rows: 9, bytes: byName['data.csv']!.length, sha256: sha256(byName['data.csv']!) },
      {
        name: 'data_dictionary.csv',
        rows: DICTIONARY.length - 1,
        bytes: byName['data_dictionary.csv']!.length,
        sha256: sha256(byName['data_dictionary.csv']!),
      },
    ]);
    expect(result?.files.map((f) => [f.name, f.rows, f.sha256])).toEqual(
      manifest.files.map((f: { name: string; rows: number; sha256: string }) => [f.name, f.rows, f.sha256]),
    );

    // Progress: an upper bound first (the instant window holds 3 readings outside the local dates, and the other team's is not counted), exact at the end.
    expect(progress[0]).toEqual({ rowsWritten: 0, rowsTotal: 12 });
    expect(progress.at(-1)).toEqual({ rowsWritten: 9, rowsTotal: 9 });

    const everything = Buffer.concat([zip, ...entries.map((e) => e.data)]).toString('utf8');
    for (const secret of [...SECRETS, 'other@team.example', 'EXD001'])
      expect(everything).not.toContain(secret);
  });

  it('separate-tabs: one CSV per metric, named by its key, each in participant and time order', async () => {
    const zip = await collect((out) =>
      writeExportArchive(t.ctx.db, request('separate-tabs'), out, { signal: signal(), now: () => NOW }),
    );
    const entries = await unzip(zip);
    expect(entries.map((e) => e.name)).toEqual([
      'egv.csv',
      'heart_rate_intraday.csv',
      'sleep_stages.csv',
      'steps.csv',
      'data_dictionary.csv',
      'manifest.json',
    ]);
    const r = w.rowsOf();
    for (const key of ['egv', 'heart_rate_intraday', 'sleep_stages', 'steps'] as const) {
      const file = entries.find((e) => e.name === `${key}.csv`)!;
      expect(lines(file.data)).toEqual([HEADER, ...r[key]]);
    }
    const manifest = JSON.parse(entries.at(-1)!.data.toString('utf8'));
    expect(manifest.export.mode).toBe('separate-tabs');
    expect(manifest.files.map((f: { name: string; rows: number }) => [f.name, f.rows])).toEqual([
      ['egv.csv', 1],
      ['heart_rate_intraday.csv', 3],
      ['sleep_stages.csv', 1],
      ['steps.csv', 4],
      ['data_dictionary.csv', DICTIONARY.length - 1],
    ]);
    for (const f of manifest.files as { name: string; sha256: string }[])
      expect(f.sha256).toBe(sha256(entries.find((e) => e.name === f.name)!.data));
    const everything = entries.map((e) => e.data.toString('utf8')).join('\n');
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });

  it('a metric without readings still gets its file (header only), counted 0', async () => {
    const zip = await collect((out) =>
      writeExportArchive(
        t.ctx.db,
        { ...request('separate-tabs'), metricKeys: ['spo2', 'steps'], participantIds: [w.ids.a] },
        out,
        { signal: signal() },
      ),
    );
    const entries = await unzip(zip);
    expect(lines(entries.find((e) => e.name === 'spo2.csv')!.data)).toEqual([HEADER]);
    expect(lines(entries.find((e) => e.name === 'steps.csv')!.data)).toEqual([HEADER, w.rowsOf().steps[3]!]);
    const manifest = JSON.parse(entries.at(-1)!.data.toString('utf8'));
    expect(manifest.files[0]).toMatchObject({ name: 'spo2.csv', rows: 0 });
  });

  it("ZIP64: 'always' writes the ZIP64 end records and readers accept it; 'auto' keeps a small archive classic", async () => {
    const zip64 = await collect((out) =>
      writeExportArchive(t.ctx.db, request('single-tab'), out, { signal: signal(), zip64: 'always' }),
    );
    const classic = await collect((out) =>
      writeExportArchive(t.ctx.db, request('single-tab'), out, { signal: signal() }),
    );
    const ZIP64_END = Buffer.from([0x50, 0x4b, 0x06, 0x06]);
    const ZIP64_LOCATOR = Buffer.from([0x50, 0x4b, 0x06, 0x07]);
    expect(zip64.includes(ZIP64_END) && zip64.includes(ZIP64_LOCATOR)).toBe(true);
    expect(classic.includes(ZIP64_END)).toBe(false);
    const [a, b] = [await unzip(zip64), await unzip(classic)];
    expect(a.map((e) => e.name)).toEqual(b.map((e) => e.name));
    expect(a[0]!.data.equals(b[0]!.data)).toBe(true);
  });
});
