/*
 * Pushing daily summaries to the fake REDCap (issue #25 item 3's Done-when):
 * a participant linked to the Fitbit and Dexcom simulators and synced; a
 * push writes exactly one instance of the repeating instrument per
 * participant-day with the provider's values (the simulators' own data),
 * twice run = the same records, a hand-typed instance is left alone, a
 * participant without a REDCap record is skipped (never created), a wrong
 * token is a clear error and changes nothing; transient failures are
 * retried; each push is in the log and the audit trail.
 */
import { REDCAP_MESSAGES } from '@trialwear/contract';
import { dexcomEgvs, fitbitDay, fitbitWearMinutes, REDCAP_API_ERRORS } from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { upsertReadings } from '../../src/features/readings/repo.js';
import { pushDailySummaries } from '../../src/features/redcap/push.js';
import { checkDeviceHealth } from '../../src/jobs/device-health/check-device.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { redcapPush } from '../../src/jobs/redcap-push/job.js';
import { auditRows } from '../support/audit.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { dailyProject, dailySettings, fakeRedcap, newRedcapToken } from '../support/redcap.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-03-20T12:00:00Z';
const FROM = '2027-03-12';
const TO = '2027-03-19';
const week = Array.from({ length: 8 }, (_, i) => addDays(FROM, i));

let t: TestApp;
let a: TeamFixture;
let trialId: number;
let pid: number;
let users: Record<'fitbit' | 'dexcom', string>;
beforeAll(async () => {
  const clock = testClock(NOW);
  t = await createTestApp({ listen: true, now: clock.now });
  a = await teamWithRoles(t, 'Redcap push', { hiddenFields: [], allowedBrands: ['Fitbit', 'Dexcom'] });
  await storeMetrics(a, 'Fitbit Sense', [
    'steps',
    'resting_heart_rate',
    'sleep_duration',
    'heart_rate_intraday',
  ]);
  await storeMetrics(a, 'Dexcom G7 CGM', ['egv']);
  ({ trialId } = await trialWithParticipants(a, 'Push', []));
  const add = async (codeSuffix: string) =>
    (
      await a.as.Admin.post('/api/trialParticipants', {
        trialId,
        email: `p${codeSuffix}@push.example`,
        codeSuffix,
      })
    ).json().participantId as number;
  pid = await add('101');
  await add('102');
  const outsider = await add('103');
  users = { fitbit: '', dexcom: '' };
  for (const provider of ['fitbit', 'dexcom'] as const) {
    await simControl(t, provider).clock(NOW);
    users[provider] = await linkParticipant(t, a, pid, provider);
  }
  const links = await t.ctx.db
    .selectFrom('participant_devices')
    .select(['id', 'provider'])
    .where('participant_id', '=', pid)
    .execute();
  for (const { id } of links)
    for (let i = 0; i < 4; i++) expect((await syncDevice(t.ctx, id)).status).toBe('synced');
  for (const { id, provider } of links) if (provider === 'fitbit') await checkDeviceHealth(t.ctx, id);
  // 103 has a day of steps but no record in REDCap.
  await upsertReadings(t.ctx.db, [
    {
      participant_id: outsider,
      team_id: a.teamId,
      metric_key: 'steps',
      measured_at: new Date('2027-03-13T12:00:00Z'),
      local_date: '2027-03-13',
      value: 4321,
    },
  ]);
}, 180_000);
afterAll(() => t?.close());

const url = (tail = '') => `/api/trials/${trialId}/redcap${tail}`;

/** A fresh project with records 101 and 102 (101 with a hand-typed instance 1), connected to the trial. */
async function connect() {
  const redcap = fakeRedcap(t);
  const { projectId, token } = await redcap.project(
    dailyProject({
      records: [
        { record_id: '101', email: 'p101@push.example' },
        {
          record_id: '101',
          redcap_repeat_instrument: 'wearable_daily',
          redcap_repeat_instance: 1,
          summary_date: '2027-01-01',
          steps: 7,
        },
        { record_id: '102', email: '' },
      ],
    }),
  );
  const saved = await a.as.Admin.put(url(), dailySettings(redcap.apiUrl, token));
  expect(saved.statusCode, saved.body).toBe(200);
  return { redcap, projectId, token };
}

const mean = (xs: number[]) => Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 10) / 10;

describe('pushing daily summaries to REDCap', () => {
  it("writes one instance per participant-day with the provider's values; twice run = the same records", async () => {
    const { redcap, projectId } = await connect();
    const first = await a.as.Admin.post(url('/push'), { from: FROM, to: TO });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ records: 1, rows: week.length });
    expect(first.json().message).toBe(
      `${REDCAP_MESSAGES.pushed(1, week.length)} 1 participant has no record in REDCap (103) and was skipped.`,
    );
    const records = await redcap.records(projectId);
    const instances = records.filter((r) => r.redcap_repeat_instrument === 'wearable_daily');
    // The hand-typed instance 1 stays; the week is instances 2 … 9, one per day, nothing for 102 or 103.
    expect(instances.map((r) => [r.record_id, r.redcap_repeat_instance, r.summary_date])).toEqual([
      ['101', '1', '2027-01-01'],
      ...week.map((d, i) => ['101', String(i + 2), d]),
    ]);
    expect(records.filter((r) => r.record_id === '103')).toEqual([]);
    const egvs = dexcomEgvs(
      users.dexcom,
      Date.parse('2027-03-10T00:00:00Z'),
      Date.parse('2027-03-21T00:00:00Z'),
    );
    for (const d of week) {
      const day = fitbitDay(users.fitbit, d);
      const glucose = egvs.filter((e) => e.displayTime.slice(0, 10) === d).map((e) => e.value);
      const row = instances.find((r) => r.summary_date === d)!;
      expect(row, d).toMatchObject({
        steps: String(day.steps),
        resting_hr: day.restingHeartRate === null ? '' : String(day.restingHeartRate),
        sleep_min: day.sleep ? String(day.sleep.minutesAsleep) : '',
        glucose_mean: glucose.length ? String(mean(glucose)) : '',
      });
    }
    // Wear minutes: study health's device days (the last 3 complete days and today when it ran).
    for (const d of ['2027-03-17', '2027-03-18', '2027-03-19'])
      expect(instances.find((r) => r.summary_date === d)!.wear_min, d).toBe(
        String(fitbitWearMinutes(users.fitbit, d)),
      );
    expect(instances.find((r) => r.summary_date === '2027-03-12')!.wear_min).toBe('');

    const second = await a.as.Admin.post(url('/push'), { from: FROM, to: TO });
    expect(second.json()).toMatchObject({ records: 1, rows: week.length });
    expect(await redcap.records(projectId)).toEqual(records);
    // A longer range adds only the new day's instance.
    await a.as.Admin.post(url('/push'), { from: addDays(FROM, -1), to: TO });
    const after = (await redcap.records(projectId)).filter(
      (r) => r.redcap_repeat_instrument === 'wearable_daily',
    );
    expect(after).toHaveLength(instances.length + 1);
    expect(after.at(-1)).toMatchObject({ redcap_repeat_instance: '10', summary_date: addDays(FROM, -1) });
    expect(after.slice(0, -1)).toEqual(instances);

    const log = (await a.as.Admin.get(url('/log'))).json().entries;
    expect(log.slice(0, 3).map((e: { status: string; trigger: string }) => [e.trigger, e.status])).toEqual([
      ['manual', 'done'],
      ['manual', 'done'],
      ['manual', 'done'],
    ]);
    expect(log[2]).toMatchObject({
      from: FROM,
      to: TO,
      records: 1,
      rows: week.length,
      error: null,
      startedBy: expect.any(String),
    });
    expect((await auditRows(t.ctx.db, 'redcap.push', ['after'])).length).toBeGreaterThanOrEqual(3);
  });

  it('a wrong token is a clear error and changes nothing in REDCap', async () => {
    const { redcap, projectId, token } = await connect();
    await a.as.Admin.post(url('/push'), { from: FROM, to: TO });
    const before = await redcap.records(projectId);
    // The token changes in REDCap (regenerated): the stored one is now wrong.
    const wrong = newRedcapToken();
    await t.ctx.db
      .updateTable('redcap_settings')
      .set({
        token_enc: (await import('../../src/security/encryption.js')).encryptSecret(
          t.ctx.secrets.encryptionKey,
          wrong,
        ),
      })
      .where('trial_id', '=', trialId)
      .execute();
    const settingsBefore = (await a.as.Admin.get(url())).json();
    const res = await a.as.Admin.post(url('/push'), { from: FROM, to: TO });
    expect(res.statusCode).toBe(502);
    const message = REDCAP_MESSAGES.refused(403, REDCAP_API_ERRORS.noPermission);
    expect(res.json()).toMatchObject({ message, reason: 'UpstreamError', displayToUser: true });
    expect(await redcap.records(projectId)).toEqual(before);
    expect((await a.as.Admin.get(url())).json()).toEqual(settingsBefore);
    const [last] = (await a.as.Admin.get(url('/log'))).json().entries;
    expect(last).toMatchObject({ status: 'failed', error: message, willRetry: false, records: null });
    expect(token).not.toBe(wrong);
  });

  it('retries a transient failure, and the nightly run says a failure in the log', async () => {
    const { redcap, projectId } = await connect();
    await redcap.failNext(2, 503);
    const res = await a.as.Admin.post(url('/push'), { from: TO, to: TO });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ records: 1, rows: 1 });
    expect((await redcap.records(projectId)).filter((r) => r.summary_date === TO)).toHaveLength(1);

    await redcap.failNext(10, 500);
    const scope = systemScope.trial('fixture', a.teamId, trialId);
    const nightly = pushDailySummaries(t.ctx, scope, {
      trigger: 'nightly',
      from: TO,
      to: TO,
      attempt: 1,
      userId: null,
      retriesLeft: true,
    });
    await expect(nightly).rejects.toThrow(
      REDCAP_MESSAGES.refused(500, 'The server is unable to process the request at this time'),
    );
    const [last] = (await a.as.Admin.get(url('/log'))).json().entries;
    expect(last).toMatchObject({
      trigger: 'nightly',
      status: 'failed',
      willRetry: true,
      attempt: 1,
      startedBy: null,
    });
    await redcap.failNext(0);
  });

  it("one push at a time per trial; dates checked; the Admin's only", async () => {
    await connect();
    // Another push holds the trial's lease (a nightly run, another server): refused, nothing sent.
    await t.ctx.db
      .updateTable('redcap_settings')
      .set({ push_lease_until: new Date(Date.now() + 60_000) })
      .where('trial_id', '=', trialId)
      .execute();
    const busy = await a.as.Admin.post(url('/push'), { from: FROM, to: TO });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(REDCAP_MESSAGES.pushRunning);
    // A lease past its time (a crashed process) is taken over.
    await t.ctx.db
      .updateTable('redcap_settings')
      .set({ push_lease_until: new Date(Date.now() - 1000) })
      .where('trial_id', '=', trialId)
      .execute();
    expect((await a.as.Admin.post(url('/push'), { from: FROM, to: TO })).statusCode).toBe(200);
    const backwards = await a.as.Admin.post(url('/push'), { from: TO, to: FROM });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toEqual([{ path: 'to', message: REDCAP_MESSAGES.pushDates }]);
    expect((await a.as.User.post(url('/push'), { from: FROM, to: TO })).statusCode).toBe(403);
    expect((await a.as.User.get(url('/log'))).statusCode).toBe(403);
  });

  it('the nightly job: a transient failure is thrown for pg-boss to retry at the next attempt; a refusal is logged, not retried', async () => {
    const { redcap, projectId } = await connect();
    const payload = { teamId: a.teamId, trialId, from: FROM, to: TO };
    await redcap.failNext(10, 500);
    await expect(redcapPush.handler(t.ctx, payload)).rejects.toThrow(/HTTP 500/);
    await redcap.failNext(0);
    expect(await redcapPush.handler(t.ctx, payload)).toEqual({ records: 1, rows: week.length });
    const [done, failed] = (await a.as.Admin.get(url('/log'))).json().entries;
    expect([done.attempt, done.status, failed.attempt, failed.willRetry]).toEqual([2, 'done', 1, true]);
    expect((await redcap.records(projectId)).filter((r) => r.redcap_repeat_instrument)).toHaveLength(
      week.length + 1,
    );
    await t.ctx.db
      .updateTable('redcap_settings')
      .set({ api_url: `${redcap.apiUrl}nowhere/` })
      .where('trial_id', '=', trialId)
      .execute();
    const refused = await redcapPush.handler(t.ctx, payload);
    expect(refused).toEqual({ failed: expect.stringContaining('REDCap') });
    expect((await a.as.Admin.get(url('/log'))).json().entries[0]).toMatchObject({
      status: 'failed',
      willRetry: false,
    });
  });
});
