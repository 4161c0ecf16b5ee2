/*
 * One person, two APIs (issue #13): the same synthetic participant read
 * through the legacy Fitbit Web API adapter and through the Google Health
 * API adapter gives the same values — units, local dates, times and offsets
 * — in the data API (every tracker resource the data pages, overview, sync
 * and export use, over 30 local days) and in the readings a sync stores.
 *
 * The participant first links through the legacy API (a link made before the
 * deployment moved to Google Health: it keeps reading through the legacy
 * API), is read and synced; then consents again through Google (the same
 * person: the simulators derive both accounts from the consent's state), the
 * link moves to the Google Health API, and the same reads and sync must agree.
 */
import type { Series } from '@trialwear/contract';
import { fitbitDay } from '@trialwear/simulators';
import { addDays, localDate, wallClock } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedReadings } from '../../src/features/readings/repo.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import {
  linkLegacyFitbit,
  linkParticipant,
  simControl,
  trialWithParticipants,
} from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T11:40:00Z';
const clock = testClock(NOW);

const SYNCED = [
  'steps',
  'distance',
  'floors',
  'calories',
  'minutes_sedentary',
  'minutes_lightly_active',
  'minutes_fairly_active',
  'minutes_very_active',
  'resting_heart_rate',
  'sleep_duration',
  'sleep_stages',
  'weight',
  'bmi',
  'body_fat',
  'spo2',
  'hrv',
  'breathing_rate',
  'skin_temperature',
  'cardio_score',
  'heart_rate_intraday',
  'steps_intraday',
  'hrv_intraday',
];

type Json = Record<string, unknown>;
type Answer = { timeZone: string; series?: Series[]; overview?: unknown };

const LOGGED = new Set(['weight', 'bmi', 'body_fat']);

/**
 * What must be equal in each answer's series (fields the Google API cannot
 * give are left out, see ARCHITECTURE.md): the provenance names each API's
 * own calls; a log id is each API's own; SpO2 has no min/max on Google; the
 * cardio score is one number on Google and a range on legacy (its middle
 * must be that number); nights not over yet are compared once ended.
 */
function comparable(body: Answer, unfinished: ReadonlySet<string>): unknown {
  if (body.overview) return body.overview;
  return (body.series ?? []).map(({ source: _source, ...s }) => {
    if (s.metric.startsWith('sleep_'))
      return {
        ...s,
        points: s.points
          ?.filter((p) => !unfinished.has(p.date))
          .map(({ detail, ...p }) => {
            const { logId: _id, ...rest } = detail ?? {};
            return { ...p, detail: rest };
          }),
      };
    // HRV samples: the legacy coverage, hf and lf and Google's SDNN are each API's own; a night not
    // over yet has its samples to now on Google (the legacy simulator lists it whole).
    if (s.metric === 'hrv_intraday')
      return {
        ...s,
        points: s.points?.filter((p) => Date.parse(p.at) <= Date.parse(NOW)).map(({ detail: _d, ...p }) => p),
      };
    if (LOGGED.has(s.metric) && s.points) return { ...s, points: s.points.map(({ detail: _d, ...p }) => p) };
    if (s.metric === 'cardio_score' || s.metric === 'spo2')
      return { ...s, days: s.days?.map((d) => ({ date: d.date, value: d.value })) };
    return s;
  });
}

describe('parity: the legacy Fitbit Web API and the Google Health API give the same values', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  const data = async (pid: number, path: string) => {
    const res = await a.as.Viewer.get(
      `/api/getFitbitServerParticipantData/${pid}/-/${encodeURIComponent(path)}`,
    );
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json() as Answer;
  };
  /** Every reading the sync stored for the participant, metric by metric, intraday minutes included. */
  const rows = async (pid: number) => {
    const all: Json[] = [];
    for (const metric of [...SYNCED].sort())
      for (const r of await storedReadings(t.ctx.db, pid, metric)) {
        const { participant_device_id: _d, provider: _p, ...row } = r;
        all.push(row as unknown as Json);
      }
    return all;
  };

  /** The reads compared, over the 30 local days up to the participant's `today`. */
  const paths = (today: string) => {
    const s = addDays(today, -29);
    const series = (r: string) => `/activities/${r}/date/${s}/${today}.json`;
    const day = addDays(today, -3);
    return [
      '/overview',
      // (caloriesBMR, activityCalories and the food logs read data types the simulator does not serve yet.)
      ...['steps', 'distance', 'floors', 'elevation', 'calories'].map(series),
      ...['minutesSedentary', 'minutesLightlyActive', 'minutesFairlyActive', 'minutesVeryActive'].map(
        (r) => `/activities/tracker/${r}/date/${s}/${today}.json`,
      ),
      `/activities/heart/date/${s}/${today}.json`,
      `/sleep/date/${s}/${today}.json`,
      `/body/log/weight/date/${s}/${today}.json`,
      `/body/log/fat/date/${s}/${today}.json`,
      `/body/weight/date/${s}/${today}.json`,
      // The body series by period (issue #21 §3: a year of weight in one call), from Google's samples too.
      `/body/weight/date/${today}/1y.json`,
      `/body/fat/date/${today}/3m.json`,
      `/body/bmi/date/${today}/6m.json`,
      `/spo2/date/${s}/${today}.json`,
      `/hrv/date/${s}/${today}.json`,
      `/hrv/date/${s}/${today}/all.json`,
      `/br/date/${s}/${today}.json`,
      `/cardioscore/date/${s}/${today}.json`,
      `/temp/skin/date/${s}/${today}.json`,
      `/activities/steps/date/${day}/1d/1min.json`,
      `/activities/steps/date/${day}/1d/15min.json`,
      `/activities/heart/date/${day}/1d/1min.json`,
    ];
  };

  beforeAll(async () => {
    // One participant's link is read through both APIs within the test clock's hour: every read of
    // each API really calls it (the answer cache is per API), so the hour's budget is raised.
    t = await createTestApp({
      listen: true,
      now: clock.now,
      env: {
        FITBIT_API: 'google_health',
        PROVIDER_CALLS_PER_HOUR: '1000',
        INTERACTIVE_CALLS_PER_HOUR: '500',
      },
    });
    a = await teamWithRoles(t, 'Parity', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', SYNCED);
    ({ trialId } = await trialWithParticipants(a, 'Parity', []));
    await simControl(t, 'fitbit').clock(NOW);
    await simControl(t, 'google-health').clock(NOW);
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** A participant of the test's own, linked through the legacy API (a link made before the switch). */
  const legacyLinked = async () => {
    participants += 1;
    const pid = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `same${participants}@x.example` })
    ).json().participantId as number;
    const link = await linkLegacyFitbit(t, a, pid);
    expect(link.provider).toBe('fitbit');
    expect(link.provider_user_id).toBeTruthy();
    return { pid, deviceId: link.id, legacyUser: link.provider_user_id! };
  };
  /**
   * Every resource read through the legacy link, and what its sync stores: the participant's local
   * today, the legacy answers and readings, and the nights not over at NOW (the legacy simulator
   * already reports them whole, Google (rightly) not yet processed — compared once they have ended).
   */
  const throughLegacy = async (pid: number, deviceId: number, legacyUser: string) => {
    const first = await data(pid, '/activities/steps/date/2027-04-01/2027-04-01.json');
    const today = localDate(first.timeZone, Date.parse(NOW));
    const legacy = new Map<string, Answer>();
    for (const p of paths(today)) legacy.set(p, await data(pid, p));
    const unfinished = new Set<string>();
    const localNow = wallClock(first.timeZone, Date.parse(NOW));
    const sleeps = legacy.get(`/sleep/date/${addDays(today, -29)}/${today}.json`)?.series;
    for (const p of sleeps?.find((x) => x.metric === 'sleep_duration')?.points ?? [])
      if (String(p.detail?.endTime).slice(0, 19) > localNow) unfinished.add(p.date);
    // One night per wake-up date the simulated person wore the tracker through (nights off the wrist
    // have none): the simulator's truth, and enough nights to compare.
    const nights = Array.from({ length: 30 }, (_, i) => addDays(today, i - 29)).filter(
      (d) => fitbitDay(legacyUser, d).sleep !== null,
    );
    expect(nights.length).toBeGreaterThan(12);
    expect(sleeps?.find((x) => x.metric === 'sleep_duration')?.points?.map((p) => p.date)).toEqual(nights);
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status, r.errors.join('; ')).toBe('synced');
    return { today, legacy, unfinished, legacyRows: await rows(pid) };
  };
  /** The participant consents again, through Google. */
  const throughGoogle = (pid: number) => linkParticipant(t, a, pid, 'fitbit');

  it('the legacy link reads through the legacy API and stores 30 days', async () => {
    const { pid, deviceId, legacyUser } = await legacyLinked();
    const status = (await a.as.Viewer.get(`/api/participantDevices/${pid}/fitbit/status`)).json();
    expect(status).toMatchObject({ status: 'authorized', api: 'legacy', reconsentRequired: false });
    const { legacyRows } = await throughLegacy(pid, deviceId, legacyUser);
    expect(legacyRows.filter((x) => x.metric_key === 'steps')).toHaveLength(30);
    // And the minutes of the first intraday run (compared through Google below).
    expect(legacyRows.filter((x) => x.metric_key === 'steps_intraday').length).toBeGreaterThan(5000);
    expect(legacyRows.filter((x) => x.metric_key === 'heart_rate_intraday').length).toBeGreaterThan(5000);
    expect(legacyRows.filter((x) => x.metric_key === 'hrv_intraday').length).toBeGreaterThan(500);
  });

  it('after the participant consents through Google: the same link, on the Google Health API', async () => {
    const { pid, deviceId, legacyUser } = await legacyLinked();
    await throughLegacy(pid, deviceId, legacyUser);
    await throughGoogle(pid);
    const link = await t.ctx.db
      .selectFrom('participant_devices')
      .select(['id', 'provider', 'legacy_user_id', 'provider_user_id'])
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    expect(link.id).toBe(deviceId);
    expect(link.provider).toBe('google_health');
    expect(link.legacy_user_id).not.toBeNull();
    expect((await a.as.Viewer.get(`/api/participantDevices/${pid}/fitbit/status`)).json()).toMatchObject({
      status: 'authorized',
      api: 'google_health',
    });
  });

  it('every tracker resource (and the overview) read through Google equals the legacy answer: zone, dates, units', async () => {
    const { pid, deviceId, legacyUser } = await legacyLinked();
    const { today, legacy, unfinished } = await throughLegacy(pid, deviceId, legacyUser);
    await throughGoogle(pid);
    for (const p of paths(today)) {
      const g = await data(pid, p);
      expect(g.timeZone).toBeTruthy();
      expect(g.series ?? g.overview, p).toBeTruthy();
      expect.soft(comparable(g, unfinished), p).toEqual(comparable(legacy.get(p)!, unfinished));
    }
  });

  it('a sync through Google stores the same readings (values, local dates and times, offsets)', async () => {
    const { pid, deviceId, legacyUser } = await legacyLinked();
    const { unfinished, legacyRows } = await throughLegacy(pid, deviceId, legacyUser);
    await throughGoogle(pid);
    const owner = await t.connectAs('owner');
    try {
      await owner.query('DELETE FROM device_readings WHERE participant_id = $1', [pid]);
      await owner.query('DELETE FROM intraday_days WHERE participant_id = $1', [pid]);
      await owner.query('DELETE FROM device_sync_cursors WHERE participant_device_id = $1', [deviceId]);
    } finally {
      await owner.end();
    }
    // The reads above used this (frozen) minute's 300 requests: the next minute starts fresh.
    await simControl(t, 'google-health').post('reset-rate-limit');
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status, r.errors.join('; ')).toBe('synced');
    const google = await rows(pid);
    // value_json: the weight log's logId and source are the API's own, SpO2 has no min/max on Google.
    const finished = (x: Json) =>
      !(String(x.metric_key).startsWith('sleep_') && unfinished.has(String(x.local_date))) &&
      !(x.metric_key === 'hrv_intraday' && new Date(String(x.measured_at)).getTime() > Date.parse(NOW));
    const strip = (x: Json) => ({
      ...x,
      // (and the cardio score's text is the legacy range or Google's number).
      value_json: ['weight', 'bmi', 'body_fat', 'spo2', 'cardio_score', 'hrv_intraday'].includes(
        String(x.metric_key),
      )
        ? null
        : x.value_json,
    });
    expect(google.filter(finished).map(strip)).toEqual(legacyRows.filter(finished).map(strip));
    const provenance = await t.ctx.db
      .selectFrom('device_readings')
      .select('provider')
      .distinct()
      .where('participant_id', '=', pid)
      .execute();
    expect(provenance.map((p) => p.provider)).toEqual(['google_health']);
  });
});
