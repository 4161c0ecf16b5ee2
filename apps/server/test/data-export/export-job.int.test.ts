/*
 * Export jobs end to end against the simulators, what they write: the job
 * fetches what the store lacks through the sync path, then writes the ZIP. Its
 * CSVs hold the simulators' own values (their exported generators) for every
 * participant, metric and local date, in both modes, for Fitbit, Omron and
 * Dexcom; the manifest's row counts and SHA-256 match the files; a hidden
 * email appears nowhere; the requester is emailed a link, never data. Cancel
 * and the team's queue: export-job-queue.int.test.ts.
 */
import { dexcomEgvs, fitbitDay, omronDay } from '@trialwear/simulators';
import { datesBetween } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import type { TeamFixture } from '../support/fixtures.js';
import { allMail, mailText } from '../support/mail.js';
import type { TestApp } from '../support/test-app.js';
import { DAY, dateAgo, type ExportJobWorld, exportJobWorld } from './support/export-job-world.js';

describe('export jobs against the simulators', () => {
  let t: TestApp;
  let a: TeamFixture;
  let devices: ExportJobWorld['devices'];
  let w: ExportJobWorld;

  beforeAll(async () => {
    w = await exportJobWorld();
    ({ t, a, devices } = w);
  }, 180_000);
  afterAll(() => t?.close());
  const newTrial = (providers: Parameters<ExportJobWorld['newTrial']>[0]) => w.newTrial(providers);
  const zipOf = (id: string) => w.zipOf(id);
  const verify = (files: Map<string, Buffer>, emails: string[]) => w.verify(files, emails);

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
      datesBetween(start, end).map((d) => {
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
        datesBetween(start, end).flatMap((d) =>
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
});

type Keyed = { code?: string | undefined; m?: string | undefined; local_date?: string | undefined };
const byKey = (x: Keyed, y: Keyed) =>
  `${x.code}|${x.m}|${x.local_date}`.localeCompare(`${y.code}|${y.m}|${y.local_date}`);
const byAt = (x: { code?: string | undefined; at: string }, y: { code?: string | undefined; at: string }) =>
  `${x.code}|${x.at}`.localeCompare(`${y.code}|${y.at}`);
