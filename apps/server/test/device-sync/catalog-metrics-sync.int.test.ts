/*
 * The rest of the metric catalog through the background sync, against the
 * simulators mounted in the test app: Fitbit HRV, breathing rate, skin
 * temperature, cardio score and intraday heart rate for a participant in
 * Sydney synced on 2027-04-20 (the 30 days back include 4 April, when
 * Sydney's clocks went back: +11:00 → +10:00, the hour 02:00–02:59 twice);
 * Dexcom calibrations and events for a participant in a US zone synced on
 * 2027-03-20 (the 30 days back include 14 March, when US clocks went
 * forward). Every stored reading equals the simulator's own generator per
 * local date, at its local time with the offset then in force, and a second
 * sync stores nothing twice.
 */

import {
  accountFromSeed,
  dexcomCalibrations,
  dexcomEvents,
  dexcomZone,
  fitbitDay,
  fitbitIntradayDataset,
  fitbitUserId,
  fitbitUserTimezone,
} from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoredReading, storedReadings } from '../../src/features/readings/repo.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { INTRADAY_DAYS_PER_RUN, vo2MaxValue } from '../../src/providers/fitbit/sync.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const FITBIT_NOW = '2027-04-20T00:40:00Z'; // 10:40 on the 20th in Sydney
const DEXCOM_NOW = '2027-03-20T12:00:00Z';
const LOCAL_TODAY = '2027-04-20';
const DAY = 86_400_000;
const clock = testClock(FITBIT_NOW);
const DATES = Array.from({ length: 30 }, (_, i) => addDays(LOCAL_TODAY, i - 29));
/**
 * Sydney's offset at a local date and wall-clock time in April 2027: +11:00
 * until 03:00 on the 4th (the first 02:00–02:59 of that night, the one a
 * clock shows first), +10:00 after.
 */
const sydneyOffset = (date: string, time = '00:00:00') =>
  date < '2027-04-04' || (date === '2027-04-04' && time < '03:00:00') ? 660 : 600;
const instant = (date: string, time: string, offset: number) =>
  new Date(Date.parse(`${date}T${time}Z`) - offset * 60_000).toISOString();
const offsetOf = (text: string) =>
  (text.startsWith('-') ? -1 : 1) * (Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6)));

const DAILY = ['hrv', 'breathing_rate', 'skin_temperature', 'cardio_score'];
const FITBIT = [...DAILY, 'heart_rate_intraday'];

/** A stored reading, wherever its metric is kept. */
type Row = StoredReading;

describe('sync of the catalog metrics beyond the daily activity series', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  const deviceOf = async (pid: number) =>
    (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow()
    ).id;
  const rows = (pid: number, metric: string): Promise<Row[]> => storedReadings(t.ctx.db, pid, metric);
  const cursorDate = async (deviceId: number, metric: string) =>
    (
      await t.ctx.db
        .selectFrom('device_sync_cursors')
        .select('cursor_date')
        .where('participant_device_id', '=', deviceId)
        .where('metric_key', '=', metric)
        .executeTakeFirst()
    )?.cursor_date ?? null;

  let candidates = 0;
  /** A new participant of the trial whose simulated account matches `fits`. */
  async function participantWhere(fits: (pid: number) => boolean, tag: string) {
    for (let i = 0; i < 80; i++) {
      candidates += 1;
      const id = (
        await a.as.Admin.post('/api/trialParticipants', { trialId, email: `${tag}${candidates}@x.example` })
      ).json().participantId as number;
      if (fits(id)) return id;
    }
    throw new Error(`no participant for ${tag}`);
  }

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Catalog sync', {
      hiddenFields: [],
      allowedBrands: ['Fitbit', 'Omron', 'Dexcom'],
    });
    await storeMetrics(a, 'Fitbit Sense', FITBIT);
    await storeMetrics(a, 'Dexcom G7 CGM', ['calibrations', 'events']);
    ({ trialId } = await trialWithParticipants(a, 'Catalog sync', []));
  });
  afterAll(() => t?.close());

  describe('Fitbit: HRV, breathing rate, skin temperature, cardio score, intraday heart rate', () => {
    /** The test's start (FITBIT_NOW, here and at the simulator) and its own participant in Sydney, linked. */
    const sydney = async () => {
      clock.set(FITBIT_NOW);
      await simControl(t, 'fitbit').clock(FITBIT_NOW);
      const clientId = t.ctx.providers.fitbit.settings.clientId;
      const pid = await participantWhere(
        (id) => fitbitUserTimezone(fitbitUserId(`${clientId}:${id}`)).tz === 'Australia/Sydney',
        'syd',
      );
      const user = await linkParticipant(t, a, pid, 'fitbit');
      return { pid, user, deviceId: await deviceOf(pid) };
    };

    it("daily values: the simulator's value of each local date, at local midnight with the offset then in force", async () => {
      const { pid, user, deviceId } = await sydney();
      const r = await syncDevice(t.ctx, deviceId);
      expect(r.status).toBe('synced');
      expect(r.metrics.sort()).toEqual([...FITBIT].sort());
      const expected: Record<string, (d: ReturnType<typeof fitbitDay>) => number | null> = {
        hrv: (d) => d.hrv?.dailyRmssd ?? null,
        breathing_rate: (d) => d.breathingRate,
        skin_temperature: (d) => d.skinTempRelative,
        cardio_score: (d) => vo2MaxValue(d.vo2Max),
      };
      for (const key of DAILY) {
        const stored = await rows(pid, key);
        const want = DATES.filter((d) => expected[key]!(fitbitDay(user, d)) !== null);
        expect(want.length, key).toBeGreaterThan(20);
        expect(
          stored.map((s) => s.local_date),
          key,
        ).toEqual(want);
        stored.forEach((s, i) => {
          const date = want[i]!;
          expect(s.value, `${key} ${date}`).toBe(expected[key]!(fitbitDay(user, date)));
          expect(s.local_time).toBe('00:00:00');
          expect(s.utc_offset_minutes, `${key} ${date}`).toBe(sydneyOffset(date));
          expect(s.measured_at.toISOString()).toBe(instant(date, '00:00:00', sydneyOffset(date)));
          expect(s).toMatchObject({ provider: 'fitbit', participant_device_id: deviceId });
        });
      }
      // What the value leaves out is kept beside it: the deep-sleep RMSSD, the VO2 max range as sent.
      const day = (await rows(pid, 'hrv'))[0]!;
      expect(day.value_json).toEqual({ deepRmssd: fitbitDay(user, day.local_date).hrv!.deepRmssd });
      const cardio = (await rows(pid, 'cardio_score'))[0]!;
      const range = fitbitDay(user, cardio.local_date).vo2Max!;
      expect(cardio.value_json).toEqual({ vo2Max: range });
      const [low, high] = range.split('-').map(Number);
      expect(cardio.value).toBe((low! + high!) / 2);
      expect(vo2MaxValue('47')).toBe(47);
      expect(vo2MaxValue('not a score')).toBeNull();
    });

    it(`intraday heart rate: one call per local day, ${INTRADAY_DAYS_PER_RUN} days a run, every minute the simulator's`, async () => {
      const { pid, user, deviceId } = await sydney();
      expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
      // The first run read the oldest days; each next run goes on from its cursor (re-reading it).
      expect(await cursorDate(deviceId, 'heart_rate_intraday')).toBe(DATES[INTRADAY_DAYS_PER_RUN - 1]);
      const sim = simControl(t, 'fitbit');
      let runs = 1;
      while ((await cursorDate(deviceId, 'heart_rate_intraday')) !== LOCAL_TODAY) {
        const before = await sim.calls(user);
        const r = await syncDevice(t.ctx, deviceId);
        expect(r.status).toBe('synced');
        // The four daily series (today again) and at most a run's intraday days: never the whole backfill.
        expect((await sim.calls(user)) - before).toBeLessThanOrEqual(DAILY.length + INTRADAY_DAYS_PER_RUN);
        runs++;
        expect(runs).toBeLessThanOrEqual(5);
      }
      expect(runs).toBe(4); // 10 days, then 9 new a run (the cursor day again), then the rest

      const stored = await rows(pid, 'heart_rate_intraday');
      let total = 0;
      for (const date of DATES) {
        const want = fitbitIntradayDataset(user, date, 'heart', '1min').dataset;
        const mine = stored.filter((s) => s.local_date === date);
        expect(
          mine.map((s) => [s.local_time, s.value]),
          date,
        ).toEqual(want.map((w) => [w.time, w.value]));
        for (const s of mine) {
          const offset = sydneyOffset(date, s.local_time!);
          expect(s.utc_offset_minutes).toBe(offset);
          expect(s.measured_at.toISOString()).toBe(instant(date, s.local_time!, offset));
        }
        total += want.length;
      }
      expect(total).toBeGreaterThan(20 * 1000);
      expect(stored).toHaveLength(total);
      // The night clocks went back: 1440 wall-clock minutes, 02:59 (+11:00) an hour before 03:00 (+10:00).
      const fourth = stored.filter((s) => s.local_date === '2027-04-04');
      if (fourth.length) {
        const at = (time: string) => fourth.find((s) => s.local_time === time);
        const [before, after] = [at('02:59:00'), at('03:00:00')];
        if (before && after)
          expect(after.measured_at.getTime() - before.measured_at.getTime()).toBe(61 * 60_000);
      }
    });

    it('a second sync stores nothing twice and changes nothing', async () => {
      const { pid, deviceId } = await sydney();
      // The first sync: as many runs as the intraday backfill takes (the test above counts them).
      for (let runs = 0; (await cursorDate(deviceId, 'heart_rate_intraday')) !== LOCAL_TODAY; runs++) {
        expect(runs).toBeLessThan(5);
        expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
      }
      const before = await Promise.all(FITBIT.map((m) => rows(pid, m)));
      const again = await syncDevice(t.ctx, deviceId);
      expect(again.status).toBe('synced');
      expect(again.rowsUpserted).toBe(0);
      // Four daily series and today's intraday heart rate; the zone is cached.
      expect(again.calls).toBe(DAILY.length + 1);
      expect(await Promise.all(FITBIT.map((m) => rows(pid, m)))).toEqual(before);
    });
  });

  describe('Dexcom: calibrations and events', () => {
    /** The test's start (DEXCOM_NOW, here and at the simulator) and its own participant in a US zone, linked. */
    const american = async () => {
      clock.set(DEXCOM_NOW);
      await simControl(t, 'dexcom').clock(DEXCOM_NOW);
      const clientId = t.ctx.providers.dexcom.settings.clientId;
      const account = (id: number) => `SandboxUser-${accountFromSeed(`${clientId}:${id}`, 8)}`;
      const pid = await participantWhere((id) => dexcomZone(account(id)).startsWith('America/'), 'dex');
      const user = await linkParticipant(t, a, pid, 'dexcom');
      expect(user).toBe(account(pid));
      return { pid, user, deviceId: await deviceOf(pid) };
    };

    it("every calibration and event of the last 30 days at systemTime, local time and offset from displayTime, the simulator's values", async () => {
      const { pid, user, deviceId } = await american();
      const r = await syncDevice(t.ctx, deviceId);
      expect(r.status).toBe('synced');
      expect(r.metrics).toEqual(['calibrations', 'events']);
      expect(r.calls).toBe(2);
      const from = Date.parse(DEXCOM_NOW) - 30 * DAY;
      const to = Date.parse(DEXCOM_NOW);
      const check = (
        stored: Row[],
        want: Array<{ systemTime: string; displayTime: string }>,
        value: (w: never) => number | null,
        json: (w: never) => unknown,
      ) => {
        expect(stored.map((s) => s.measured_at.toISOString().replace('.000Z', 'Z'))).toEqual(
          want.map((w) => w.systemTime),
        );
        stored.forEach((s, i) => {
          const w = want[i]!;
          expect(s.value).toBe(value(w as never));
          expect(s.value_json).toEqual(json(w as never));
          expect(`${s.local_date}T${s.local_time}`).toBe(w.displayTime.slice(0, 19));
          expect(s.utc_offset_minutes).toBe(offsetOf(w.displayTime.slice(19)));
          expect(s).toMatchObject({ provider: 'dexcom', participant_device_id: deviceId });
        });
      };
      const calibrations = dexcomCalibrations(user, from, to);
      expect(calibrations.length).toBeGreaterThan(0);
      check(
        await rows(pid, 'calibrations'),
        calibrations,
        (w: { value: number }) => w.value,
        (w: { recordId: string }) => ({ recordId: w.recordId, unit: 'mg/dL' }),
      );
      const events = dexcomEvents(user, from, to);
      expect(events.length).toBeGreaterThan(60);
      const stored = await rows(pid, 'events');
      check(
        stored,
        events,
        (w: { value: string }) => Number(w.value),
        (w: Record<string, unknown>) => ({
          recordId: w.recordId,
          eventType: w.eventType,
          eventSubType: w.eventSubType,
          eventStatus: 'created',
          value: w.value,
          unit: w.unit,
        }),
      );
      // Both sides of the US clock change of 14 March: standard time before, daylight time after.
      const offsets = new Set(stored.map((s) => s.utc_offset_minutes));
      expect(offsets.size).toBe(2);
      const [std, dst] = [...offsets].sort((x, y) => x! - y!);
      expect(dst! - std!).toBe(60);
      expect(
        stored.filter((s) => s.local_date < '2027-03-14').every((s) => s.utc_offset_minutes === std),
      ).toBe(true);
      expect(
        stored.filter((s) => s.local_date > '2027-03-14').every((s) => s.utc_offset_minutes === dst),
      ).toBe(true);
    });

    it('a second sync an hour later adds only the new records, none twice', async () => {
      const { pid, user, deviceId } = await american();
      expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
      const before = {
        calibrations: (await rows(pid, 'calibrations')).length,
        events: (await rows(pid, 'events')).length,
      };
      const same = await syncDevice(t.ctx, deviceId);
      expect(same.rowsUpserted).toBe(0);
      const later = new Date(Date.parse(DEXCOM_NOW) + 12 * 3_600_000).toISOString();
      clock.advance(12 * 3_600_000);
      await simControl(t, 'dexcom').clock(later);
      const next = await syncDevice(t.ctx, deviceId);
      expect(next.calls).toBe(2);
      const added = {
        calibrations: dexcomCalibrations(user, Date.parse(DEXCOM_NOW) + 1000, Date.parse(later)).length,
        events: dexcomEvents(user, Date.parse(DEXCOM_NOW) + 1000, Date.parse(later)).length,
      };
      expect(added.events).toBeGreaterThan(0);
      expect((await rows(pid, 'calibrations')).length).toBe(before.calibrations + added.calibrations);
      expect((await rows(pid, 'events')).length).toBe(before.events + added.events);
      expect(next.rowsUpserted).toBe(added.calibrations + added.events);
    });
  });
});
