/*
 * Export jobs end to end against the simulators: the job fetches what the
 * store lacks through the sync path, then writes the ZIP. Its CSVs hold the
 * simulators' own values (their exported generators) for every participant,
 * metric and local date, in both modes, for Fitbit, Omron and Dexcom; the
 * manifest's row counts and SHA-256 match the files; a hidden email appears
 * nowhere; the requester is emailed a link, never data. Cancel during
 * processing stops the job within a second and leaves no file. At most two
 * jobs of a team run at once; the rest wait in order.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EXPORT_MESSAGES as M } from '@trialwear/contract';
import { dexcomEgvs, fitbitDay, omronDay } from '@trialwear/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { allMail, mailText } from '../support/mail.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { parseCsv, zipEntries } from './export-zip.js';

const DAY = 86_400_000;
const dateAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);
const datesFrom = (start: string, end: string) => {
  const out: string[] = [];
  for (let t = Date.parse(start); t <= Date.parse(end); t += DAY)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};
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

async function until(check: () => Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('export jobs against the simulators', () => {
  let t: TestApp;
  let a: TeamFixture;
  let other: TeamFixture;
  const devices = new Map<string, number>(); // device name → id
  let trialSeq = 0;

  /**
   * A trial of team A of its own for one test: three participants (their emails hidden) linked to the
   * given providers, none of whose data is stored yet; `request` asks an export of its first two.
   */
  async function newTrial(providers: Array<'fitbit' | 'omron' | 'dexcom'>) {
    trialSeq += 1;
    const originalEmails = ['hidden.one', 'hidden.two', 'hidden.three'].map(
      (name) => `${name}.${trialSeq}@private.example`,
    );
    const { trialId, ids } = await trialWithParticipants(
      a,
      `Export jobs ${trialSeq}`,
      originalEmails,
      String(trialSeq),
    );
    const users = new Map<string, string>(); // `${provider}:${participantId}` → simulator user id
    for (const id of ids)
      for (const p of providers) users.set(`${p}:${id}`, await linkParticipant(t, a, id, p));
    const codes = new Map<number, string>();
    const storedEmails: string[] = [];
    for (const p of await t.ctx.db
      .selectFrom('participants')
      .select(['id', 'participant_code', 'email'])
      .where('trial_id', '=', trialId)
      .execute()) {
      codes.set(p.id, p.participant_code ?? `#${p.id}`);
      storedEmails.push(p.email);
    }
    const request = async (change: Record<string, unknown>, role: 'User' | 'Admin' = 'User') => {
      const res = await a.as[role].post('/api/dataExport/batchDataExport', {
        trialId,
        participantIds: [ids[0], ids[1]],
        exportMode: 'single-tab',
        fileName: 'study',
        ...change,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().jobId as string;
    };
    return { ids, users, codes, emails: [...storedEmails, ...originalEmails], request };
  }

  const zipOf = async (id: string) => {
    const res = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    return zipEntries(res.rawPayload);
  };
  const jobRow = (id: string) =>
    t.ctx.db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Every entry checked against the manifest, none holding an email; answers the data CSVs' rows by file name. */
  function verify(files: Map<string, Buffer>, emails: string[]) {
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    expect(manifest.generated_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const listed = manifest.files as Array<{ name: string; rows: number; sha256: string }>;
    expect(listed.map((f) => f.name).sort()).toEqual(
      [...files.keys()].filter((n) => n !== 'manifest.json').sort(),
    );
    for (const f of listed) {
      const data = files.get(f.name)!;
      expect(createHash('sha256').update(data).digest('hex'), f.name).toBe(f.sha256);
      expect(parseCsv(data.toString('utf8')).rows.length, f.name).toBe(f.rows);
    }
    const all = [...files.values()].map((b) => b.toString('utf8')).join('\n');
    for (const email of emails) expect(all).not.toContain(email);
    const data = new Map<string, Record<string, string>[]>();
    for (const [name, buf] of files) {
      if (name === 'manifest.json' || name === 'data_dictionary.csv') continue;
      const csv = parseCsv(buf.toString('utf8'));
      expect(csv.header.slice(0, HEADER.length)).toEqual(HEADER);
      data.set(name, csv.rows);
    }
    return { manifest, data };
  }

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    // Emails hidden: the team keeps placeholders, and the export must not carry even those.
    a = await teamWithRoles(t, 'Export jobs', { hiddenFields: ['email', 'notes'] });
    other = await teamWithRoles(t, 'Export jobs other', { hiddenFields: [] });
    await storeMetrics(a, 'Fitbit Sense', ['steps', 'distance']);
    await storeMetrics(a, 'Omron Blood Pressure Monitor', ['systolic', 'diastolic', 'pulse']);
    await storeMetrics(a, 'Dexcom G7 CGM', ['egv']);
    for (const d of (await a.as.User.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>)
      devices.set(d.friendlyName, d.id);
  }, 180_000);
  afterAll(() => t?.close());

  it("Fitbit, single-tab then separate-tabs: every participant × metric × local date holds the simulator's value", async () => {
    const { ids, users, codes, emails, request } = await newTrial(['fitbit']);
    const start = dateAgo(12);
    const end = dateAgo(2);
    const params = {
      deviceId: devices.get('Fitbit Sense'),
      metrics: ['steps', 'distance'],
      startDate: start,
      endDate: end,
    };
    const expected = (pid: number, metric: string) =>
      datesFrom(start, end).map((d) => {
        const day = fitbitDay(users.get(`fitbit:${pid}`)!, d);
        return { local_date: d, value: metric === 'steps' ? day.steps : day.distanceKm };
      });
    const check = (rows: Record<string, string>[], metrics: string[]) => {
      const want = [ids[0]!, ids[1]!]
        .sort((x, y) => codes.get(x)!.localeCompare(codes.get(y)!))
        .flatMap((pid) =>
          metrics.flatMap((m) => expected(pid, m).map((e) => ({ code: codes.get(pid), m, ...e }))),
        );
      const got = rows.map((r) => ({
        code: r.participant_code,
        m: r.metric_key,
        local_date: r.local_date,
        value: Number(r.value),
      }));
      expect(got.sort(byKey)).toEqual(want.sort(byKey));
      for (const r of rows) {
        expect(r.unit).toBe(r.metric_key === 'steps' ? 'steps' : 'km');
        expect(r.measured_at_utc).toMatch(/Z$/);
        expect(r.utc_offset).toMatch(/^[+-]\d\d:\d\d$/);
      }
    };
    const single = await request({ ...params, exportMode: 'single-tab' });
    expect(await runExport(t.ctx, single)).toMatchObject({ status: 'completed' });
    let v = verify(await zipOf(single), emails);
    expect(v.data.size).toBe(1);
    const [rows] = [...v.data.values()];
    check(rows!, ['steps', 'distance']);
    // Ordered by participant, metric and time.
    const order = rows!.map((r) => `${r.participant_code}|${r.metric_key}|${r.measured_at_utc}`);
    expect(order).toEqual([...order].sort());
    expect(v.manifest.files.find((f: { name: string }) => f.name === 'data_dictionary.csv')).toBeTruthy();

    const separate = await request({ ...params, exportMode: 'separate-tabs', fileName: 'study-separate' });
    // The range is stored now: the second job asks the provider nothing.
    const calls = await t.ctx.db
      .selectFrom('device_sync_state')
      .select(['participant_device_id', 'budget_calls'])
      .execute();
    expect(await runExport(t.ctx, separate)).toMatchObject({ status: 'completed' });
    const after = await t.ctx.db
      .selectFrom('device_sync_state')
      .select(['participant_device_id', 'budget_calls'])
      .execute();
    expect(after).toEqual(calls);
    v = verify(await zipOf(separate), emails);
    expect([...v.data.keys()].sort()).toEqual(['distance.csv', 'steps.csv']);
    check(v.data.get('steps.csv')!, ['steps']);
    check(v.data.get('distance.csv')!, ['distance']);
  }, 120_000);

  it("Omron (separate-tabs) and Dexcom (single-tab): every reading of the range at the simulator's instant and value", async () => {
    const { ids, users, codes, emails, request } = await newTrial(['omron', 'dexcom']);
    const start = dateAgo(9);
    const end = dateAgo(2);
    const om = await request({
      deviceId: devices.get('Omron Blood Pressure Monitor'),
      metrics: ['systolic', 'diastolic'],
      startDate: start,
      endDate: end,
      exportMode: 'separate-tabs',
    });
    expect(await runExport(t.ctx, om)).toMatchObject({ status: 'completed' });
    const ov = verify(await zipOf(om), emails);
    for (const metric of ['systolic', 'diastolic'] as const) {
      const want = [ids[0]!, ids[1]!].flatMap((pid) =>
        datesFrom(start, end).flatMap((d) =>
          omronDay(users.get(`omron:${pid}`)!, d).bloodPressure.map((r) => ({
            code: codes.get(pid),
            at: new Date(r.dateTime).toISOString(),
            local: r.dateTimeLocal,
            offset: r.dateTimeUtcOffset,
            value: r[metric],
          })),
        ),
      );
      expect(want.length).toBeGreaterThan(5);
      const got = ov.data.get(`${metric}.csv`)!.map((r) => ({
        code: r.participant_code,
        at: new Date(r.measured_at_utc!).toISOString(),
        local: `${r.local_date}T${r.local_time}`,
        offset: r.utc_offset,
        value: Number(r.value),
      }));
      expect(got.sort(byAt)).toEqual(want.sort(byAt));
    }

    const dx = await request({
      deviceId: devices.get('Dexcom G7 CGM'),
      participantIds: [ids[2]],
      metrics: ['egv'],
      startDate: start,
      endDate: end,
    });
    expect(await runExport(t.ctx, dx)).toMatchObject({ status: 'completed' });
    const dv = verify(await zipOf(dx), emails);
    const user = users.get(`dexcom:${ids[2]}`)!;
    const want = dexcomEgvs(user, Date.parse(start) - 2 * DAY, Date.parse(end) + 3 * DAY)
      .filter((r) => r.displayTime.slice(0, 10) >= start && r.displayTime.slice(0, 10) <= end)
      .map((r) => ({
        at: new Date(r.systemTime.endsWith('Z') ? r.systemTime : `${r.systemTime}Z`).toISOString(),
        local: r.displayTime.slice(0, 19),
        value: r.value,
      }));
    const [rows] = [...dv.data.values()];
    const got = rows!.map((r) => ({
      at: new Date(r.measured_at_utc!).toISOString(),
      local: `${r.local_date}T${r.local_time}`,
      value: Number(r.value),
    }));
    expect(got.length).toBeGreaterThan(1000);
    expect(got).toEqual(want);
    expect(new Set(rows!.map((r) => r.participant_code))).toEqual(new Set([codes.get(ids[2]!)]));
  }, 120_000);

  it('the requester is emailed a plain-text link to /DataExport when a job completes, never data', async () => {
    const { codes, request } = await newTrial(['fitbit']);
    const id = await request({
      deviceId: devices.get('Fitbit Sense'),
      metrics: ['steps'],
      startDate: dateAgo(5),
      endDate: dateAgo(2),
    });
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const mails = await allMail(
      t.dataDir,
      (raw) => raw.includes('data export is ready') && mailText(raw).includes(`Export job ${id}`),
    );
    expect(mails).toHaveLength(1);
    const text = mailText(mails[0]!);
    const user = await t.ctx.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', a.userIds.User)
      .executeTakeFirstOrThrow();
    expect(text).toContain(`To: ${user.email}`);
    expect(text).toContain(`${t.ctx.config.publicUrl}/DataExport`);
    expect(text).toMatch(/Content-Type: text\/plain/i);
    expect(text).not.toMatch(/Content-Disposition: attachment/i);
    for (const code of codes.values()) expect(text).not.toContain(code);
  });

  it('cancel during processing: the worker stops within a second, the job is cancelled and no file is left', async () => {
    // A long Dexcom range not stored yet: the job spends seconds fetching.
    const { ids, request } = await newTrial(['dexcom']);
    const id = await request({
      deviceId: devices.get('Dexcom G7 CGM'),
      participantIds: [ids[0]],
      metrics: ['egv'],
      startDate: dateAgo(300),
      endDate: dateAgo(1),
    });
    const run = runExport(t.ctx, id);
    await until(async () => (await jobRow(id)).status === 'processing', 'processing');
    await new Promise((r) => setTimeout(r, 300));
    const res = await a.as.User.post(`/api/dataExport/jobs/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const cancelledAt = Date.now();
    expect(await run).toEqual({ status: 'cancelled' });
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'cancelled', error_message: M.cancelledByUser, storage_key: null });
    const dir = path.join(t.dataDir, 'exports');
    const leftovers = fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.includes(id))
      : [];
    expect(leftovers).toEqual([]);
    expect((await a.as.User.get(`/api/dataExport/jobs/${id}/download`)).statusCode).toBe(409);
  }, 60_000);

  it('at most two jobs of a team run at once; the others wait in the order requested', async () => {
    // Slow jobs: long ranges not stored yet (Dexcom for two participants), by two people of the
    // team (one person runs one export at a time: EXPORT_LIMITS.runningPerUser).
    const { ids, request } = await newTrial(['fitbit', 'dexcom']);
    const slow = (pid: number, role: 'User' | 'Admin') =>
      request(
        {
          deviceId: devices.get('Dexcom G7 CGM'),
          participantIds: [pid],
          metrics: ['egv'],
          startDate: dateAgo(90),
          endDate: dateAgo(1),
        },
        role,
      );
    const first = await slow(ids[1]!, 'User');
    const second = await slow(ids[2]!, 'Admin');
    const third = await request({
      deviceId: devices.get('Fitbit Sense'),
      metrics: ['steps'],
      startDate: dateAgo(12),
      endDate: dateAgo(2),
    });
    // Out of order: the third may not jump the queue while the first two wait.
    expect(await runExport(t.ctx, third)).toEqual({ status: 'waiting' });
    // Another team is not held up by this one's jobs.
    await storeMetrics(other, 'Fitbit Sense', ['steps']);
    const { trialId: ot, ids: oids } = await trialWithParticipants(other, 'Other', ['o1@x.example']);
    await linkParticipant(t, other, oids[0]!, 'fitbit');
    const od = (
      (await other.as.User.get('/api/dataExport/devices')).json() as Array<{
        id: number;
        friendlyName: string;
      }>
    ).find((d) => d.friendlyName === 'Fitbit Sense')!.id;
    const otherJob = (
      await other.as.User.post('/api/dataExport/batchDataExport', {
        trialId: ot,
        deviceId: od,
        participantIds: oids,
        metrics: ['steps'],
        startDate: dateAgo(5),
        endDate: dateAgo(2),
        fileName: 'o',
        exportMode: 'single-tab',
      })
    ).json().jobId as string;
    const runs = [runExport(t.ctx, first), runExport(t.ctx, second)];
    await until(
      async () =>
        (await jobRow(first)).status === 'processing' && (await jobRow(second)).status === 'processing',
      'two running',
    );
    expect(await runExport(t.ctx, third)).toEqual({ status: 'waiting' });
    expect((await jobRow(third)).status).toBe('pending');
    expect((await jobRow(first)).status).toBe('processing');
    expect(await runExport(t.ctx, otherJob)).toMatchObject({ status: 'completed' });
    expect((await jobRow(first)).status).toBe('processing');
    for (const r of await Promise.all(runs)) expect(r).toMatchObject({ status: 'completed' });
    expect(await runExport(t.ctx, third)).toMatchObject({ status: 'completed' });
  }, 180_000);
});

type Keyed = { code?: string | undefined; m?: string | undefined; local_date?: string | undefined };
const byKey = (x: Keyed, y: Keyed) =>
  `${x.code}|${x.m}|${x.local_date}`.localeCompare(`${y.code}|${y.m}|${y.local_date}`);
const byAt = (x: { code?: string | undefined; at: string }, y: { code?: string | undefined; at: string }) =>
  `${x.code}|${x.at}`.localeCompare(`${y.code}|${y.at}`);
