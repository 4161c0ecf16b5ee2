/*
 * writeExportArchive on a real database (issue #12 item 3): readings of three
 * participants (London across the spring DST change, Kiritimati at +14:00,
 * Los Angeles at -07:00) and one of another team; both modes unzipped with
 * yauzl; every CSV line compared exactly (header, columns, order, the
 * local-date range, offsets, UTC instants, units, value_json, device,
 * source); the manifest's counts and SHA-256 against the extracted files;
 * the data dictionary; no email or notes anywhere; progress; ZIP64 records.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ArchiveRequest,
  writeExportArchive,
} from '../../src/features/data-export/archive/write-archive.js';
import { type ReadingRow, upsertReadings } from '../../src/features/readings/repo.js';
import { createExportStorage } from '../../src/storage/export-storage.js';
import { APP_VERSION } from '../../src/version.js';
import { createTestTeam, insertTrial } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { lines, sha256, unzip } from './support/zip.js';

const HEADER =
  'participant_code,metric_key,local_date,local_time,utc_offset,measured_at_utc,value,unit,value_json,device,source';
const SECRETS = [
  'hidden-a@secret.example',
  'hidden-b@secret.example',
  'hidden-c@secret.example',
  'NOTE-SECRET',
];

async function collect(run: (out: NodeJS.WritableStream) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await run(out);
  return Buffer.concat(chunks);
}

describe('writeExportArchive', () => {
  let t: TestApp;
  let teamId: number;
  let trialId: number;
  let ids: { a: number; b: number; c: number; other: number };
  const signal = () => new AbortController().signal;
  const now = new Date('2026-04-02T08:15:30.000Z');

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.ctx.db;
    teamId = await createTestTeam(t, 'Export Archive Team', { hiddenFields: ['email', 'notes'] });
    const otherTeam = await createTestTeam(t, 'Export Archive Other');
    const trial = (team: number, code: string) =>
      insertTrial(t, { teamId: team, number: code, name: code, code });
    trialId = await trial(teamId, 'EXA');
    const otherTrial = await trial(otherTeam, 'EXD');
    // Created in an order different from the codes': the export orders by code.
    const a = await participant(teamId, trialId, SECRETS[0]!, 'EXA002');
    const b = await participant(teamId, trialId, SECRETS[1]!, 'EXA001');
    const c = await participant(teamId, trialId, SECRETS[2]!, null);
    const other = await participant(otherTeam, otherTrial, 'other@team.example', 'EXD001');
    ids = { a, b, c, other };

    const catalogId = async (name: string) =>
      (
        await db
          .selectFrom('global_device_catalog')
          .select('id')
          .where('device_name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    const link = async (participantId: number, team: number, provider: 'fitbit' | 'dexcom', device: string) =>
      (
        await db
          .insertInto('participant_devices')
          .values({
            participant_id: participantId,
            team_id: team,
            provider,
            global_device_catalog_id: await catalogId(device),
            authorization_status: 'authorized',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const devA = await link(a, teamId, 'fitbit', 'Fitbit Sense');
    const devB = await link(b, teamId, 'fitbit', 'Fitbit Smartwatches & Trackers');
    const devC = await link(c, teamId, 'dexcom', 'Dexcom G7 CGM');

    const r = (
      participant_id: number,
      participant_device_id: number | null,
      metric_key: string,
      utc: string,
      local: string,
      offset: number | null,
      value: number | null,
      extra: Partial<ReadingRow> = {},
    ): ReadingRow => ({
      participant_id,
      team_id: participant_id === other ? otherTeam : teamId,
      participant_device_id,
      metric_key,
      measured_at: new Date(utc),
      local_date: local.slice(0, 10),
      local_time: local.slice(11) || null,
      utc_offset_minutes: offset,
      value,
      ...extra,
    });
    await upsertReadings(db, [
      // B, London: the clocks go forward at 2026-03-29T01:00Z.
      r(b, devB, 'steps', '2026-03-27T00:00:00Z', '2026-03-27T00:00:00', 0, 1000, { provider: 'fitbit' }),
      r(b, devB, 'steps', '2026-03-28T00:00:00Z', '2026-03-28T00:00:00', 0, 8123, { provider: 'fitbit' }),
      r(b, devB, 'steps', '2026-03-29T00:00:00Z', '2026-03-29T00:00:00', 0, 10456),
      r(b, devB, 'steps', '2026-03-29T23:00:00Z', '2026-03-30T00:00:00', 60, 7001.5),
      r(b, devB, 'heart_rate_intraday', '2026-03-29T01:00:00Z', '2026-03-29T02:00:00', 60, 62),
      r(b, devB, 'heart_rate_intraday', '2026-03-29T00:59:00Z', '2026-03-29T00:59:00', 0, 61),
      r(b, devB, 'sleep_stages', '2026-03-29T00:00:00Z', '2026-03-29T00:00:00', 0, null, {
        value_json: { deep: 61, light: 212, startTime: '2026-03-28T22:30:00.000' },
      }),
      // A, Kiritimati (+14:00): local dates a day ahead of UTC.
      r(a, devA, 'heart_rate_intraday', '2026-03-27T10:30:00Z', '2026-03-28T00:30:00', 840, 70),
      r(a, devA, 'steps', '2026-03-29T10:00:00Z', '2026-03-30T00:00:00', 840, 5000),
      r(a, devA, 'steps', '2026-03-30T10:00:00Z', '2026-03-31T00:00:00', 840, 4000),
      // C, Los Angeles (-07:00), no code; one reading without a device link, with a fraction of a second.
      r(c, null, 'egv', '2026-03-31T06:55:00.500Z', '2026-03-30T23:55:00', -420, 104, {
        provider: 'dexcom',
        value_json: { recordId: 'r1' },
      }),
      r(c, devC, 'egv', '2026-03-28T06:00:00Z', '2026-03-27T23:00:00', -420, 99),
      // Another team's participant (asked for by mistake): never exported.
      r(other, null, 'steps', '2026-03-29T00:00:00Z', '2026-03-29T00:00:00', 0, 1),
    ]);
  });
  afterAll(() => t.close());

  async function participant(team: number, trialIdOf: number, email: string, code: string | null) {
    return (
      await t.ctx.db
        .insertInto('participants')
        .values({
          team_id: team,
          trial_id: trialIdOf,
          email,
          notes: 'NOTE-SECRET of this participant',
          participant_code: code,
          participant_code_suffix: code === null ? null : code.slice(3),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  const request = (mode: ArchiveRequest['mode']): ArchiveRequest => ({
    teamId,
    participantIds: [ids.a, ids.b, ids.c, ids.other],
    metricKeys: ['steps', 'heart_rate_intraday', 'sleep_stages', 'egv'],
    startDate: '2026-03-28',
    endDate: '2026-03-30',
    mode,
    jobParams: { fileName: 'study-export', startDate: '2026-03-28', endDate: '2026-03-30', exportMode: mode },
  });

  const rowsOf = () => {
    const sleepJson = '"{""deep"": 61, ""light"": 212, ""startTime"": ""2026-03-28T22:30:00.000""}"';
    const fb = 'Fitbit Smartwatches & Trackers,fitbit';
    return {
      egv: [
        `#${ids.c},egv,2026-03-30,23:55:00,-07:00,2026-03-31T06:55:00.5Z,104,mg/dL,"{""recordId"": ""r1""}",,dexcom`,
      ],
      heart_rate_intraday: [
        `EXA001,heart_rate_intraday,2026-03-29,00:59:00,+00:00,2026-03-29T00:59:00Z,61,bpm,,${fb}`,
        `EXA001,heart_rate_intraday,2026-03-29,02:00:00,+01:00,2026-03-29T01:00:00Z,62,bpm,,${fb}`,
        'EXA002,heart_rate_intraday,2026-03-28,00:30:00,+14:00,2026-03-27T10:30:00Z,70,bpm,,Fitbit Sense,fitbit',
      ],
      sleep_stages: [
        `EXA001,sleep_stages,2026-03-29,00:00:00,+00:00,2026-03-29T00:00:00Z,,min,${sleepJson},${fb}`,
      ],
      steps: [
        `EXA001,steps,2026-03-28,00:00:00,+00:00,2026-03-28T00:00:00Z,8123,steps,,${fb}`,
        `EXA001,steps,2026-03-29,00:00:00,+00:00,2026-03-29T00:00:00Z,10456,steps,,${fb}`,
        `EXA001,steps,2026-03-30,00:00:00,+01:00,2026-03-29T23:00:00Z,7001.5,steps,,${fb}`,
        'EXA002,steps,2026-03-30,00:00:00,+14:00,2026-03-29T10:00:00Z,5000,steps,,Fitbit Sense,fitbit',
      ],
    };
  };

  const DICTIONARY = [
    'metric_key,metric_name,unit,description,source,device_type',
    'egv,Estimated glucose value,mg/dL,Sensor glucose value every 5 minutes,dexcom,cgm',
    'heart_rate_intraday,Intraday heart rate,bpm,Heart rate per minute through the day,fitbit,fitness_tracker',
    'sleep_stages,Sleep stages,min,"Minutes in deep, light, REM and wake stages",fitbit,fitness_tracker',
    'steps,Steps,steps,Steps taken per day (and per minute intraday),fitbit,fitness_tracker',
  ];

  it('single-tab: one data CSV in participant, metric, time order; dictionary; a manifest that proves it', async () => {
    const progress: { rowsWritten: number; rowsTotal: number }[] = [];
    let result: Awaited<ReturnType<typeof writeExportArchive>> | undefined;
    const zip = await collect(async (out) => {
      result = await writeExportArchive(t.ctx.db, request('single-tab'), out, {
        signal: signal(),
        onProgress: (p) => progress.push(p),
        now: () => now,
      });
    });
    expect(result?.bytes).toBe(zip.length);
    const entries = await unzip(zip);
    expect(entries.map((e) => e.name)).toEqual(['data.csv', 'data_dictionary.csv', 'manifest.json']);
    const byName = Object.fromEntries(entries.map((e) => [e.name, e.data]));

    const r = rowsOf();
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
        participants: ['EXA001', 'EXA002', `#${ids.c}`],
      },
    });
    expect(manifest.files).toEqual([
      { name: 'data.csv', rows: 9, bytes: byName['data.csv']!.length, sha256: sha256(byName['data.csv']!) },
      {
        name: 'data_dictionary.csv',
        rows: 4,
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
      writeExportArchive(t.ctx.db, request('separate-tabs'), out, { signal: signal(), now: () => now }),
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
    const r = rowsOf();
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
      ['data_dictionary.csv', 4],
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
        { ...request('separate-tabs'), metricKeys: ['spo2', 'steps'], participantIds: [ids.a] },
        out,
        { signal: signal() },
      ),
    );
    const entries = await unzip(zip);
    expect(lines(entries.find((e) => e.name === 'spo2.csv')!.data)).toEqual([HEADER]);
    expect(lines(entries.find((e) => e.name === 'steps.csv')!.data)).toEqual([HEADER, rowsOf().steps[3]!]);
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

  it('abort: stops within a second, mid-COPY, and the COPY ends on the server', async () => {
    // Enough rows that the COPY is still running when the abort comes (the sink is slow), of a
    // participant of this test's own. Written as the superuser in replica mode: the foreign-key
    // triggers would take most of the test's time.
    const bulk = await participant(teamId, trialId, 'bulk@secret.example', null);
    const superuser = await t.connectAs('superuser');
    try {
      await superuser.query("SET session_replication_role = 'replica'");
      await superuser.query(
        `INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date, local_time, utc_offset_minutes, value)
         SELECT $1, $2, 'heart_rate_intraday', ts, (ts AT TIME ZONE 'UTC')::date, (ts AT TIME ZONE 'UTC')::time, 0, 60 + i % 40
           FROM generate_series(1, 150000) i, LATERAL (SELECT timestamptz '2026-03-28T00:00:00Z' + i * interval '1 second') s(ts)
         ON CONFLICT DO NOTHING`,
        [bulk, teamId],
      );
    } finally {
      await superuser.end();
    }
    const controller = new AbortController();
    let writes = 0;
    let abortedAt = 0;
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(_chunk, _enc, cb) {
        writes += 1;
        if (writes === 3) {
          abortedAt = Date.now();
          controller.abort(new Error('cancelled by the test'));
        }
        setTimeout(cb, 20);
      },
    });
    const running = writeExportArchive(t.ctx.db, { ...request('single-tab'), participantIds: [bulk] }, slow, {
      signal: controller.signal,
    });
    await expect(running).rejects.toThrow('cancelled by the test');
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(slow.destroyed).toBe(true);
    // The server's COPY is gone within the second too (its connection was closed).
    const activeCopies = async () =>
      (
        await t.ctx.db
          .selectFrom(
            (
              await import('kysely')
            ).sql<{ n: number }>`(SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND query LIKE 'COPY (%' AND state = 'active')`.as('a'),
          )
          .select('n')
          .executeTakeFirstOrThrow()
      ).n;
    const deadline = abortedAt + 1000;
    let copies = await activeCopies();
    while (copies > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      copies = await activeCopies();
    }
    expect(copies).toBe(0);
    // The pool is usable afterwards (the aborted connection was discarded, not returned mid-COPY).
    const again = await collect((out) =>
      writeExportArchive(t.ctx.db, { ...request('single-tab'), participantIds: [ids.a] }, out, {
        signal: signal(),
      }),
    );
    expect((await unzip(again)).map((e) => e.name)).toEqual([
      'data.csv',
      'data_dictionary.csv',
      'manifest.json',
    ]);
  });

  it('through the export storage: committed, it opens as the same archive; aborted, nothing is left', async () => {
    const small = (mode: ArchiveRequest['mode']) => ({ ...request(mode), participantIds: [ids.a, ids.c] });
    const storage = createExportStorage(t.ctx.config);
    const writer = await storage.createWriter('exports/archive-1.zip');
    const result = await writeExportArchive(t.ctx.db, small('separate-tabs'), writer.stream, {
      signal: signal(),
      now: () => now,
    });
    expect(await writer.commit()).toEqual({ size: result.bytes });
    const opened = await storage.open('exports/archive-1.zip');
    expect(opened?.size).toBe(result.bytes);
    const chunks: Buffer[] = [];
    for await (const c of opened!.stream as AsyncIterable<Buffer>) chunks.push(c);
    const direct = await collect((out) =>
      writeExportArchive(t.ctx.db, small('separate-tabs'), out, { signal: signal(), now: () => now }),
    );
    expect(Buffer.concat(chunks).equals(direct)).toBe(true);

    const controller = new AbortController();
    const aborted = await storage.createWriter('exports/archive-2.zip');
    const running = writeExportArchive(t.ctx.db, small('single-tab'), aborted.stream, {
      signal: controller.signal,
    });
    controller.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    await aborted.abort();
    expect(await storage.open('exports/archive-2.zip')).toBeNull();
    expect(fs.readdirSync(path.join(t.dataDir, 'exports', 'exports'))).toEqual(['archive-1.zip']);
  });

  it('an already aborted signal writes nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const out = new PassThrough();
    let written = 0;
    out.on('data', (c: Buffer) => {
      written += c.length;
    });
    await expect(
      writeExportArchive(t.ctx.db, request('single-tab'), out, { signal: controller.signal }),
    ).rejects.toThrow('too late');
    expect(written).toBe(0);
  });
});
