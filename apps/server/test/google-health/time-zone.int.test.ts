/*
 * A participant who moves to another time zone in the middle of the period
 * (the Google Health simulator's person changes zone from an instant; each
 * local date is lived in the zone in force when it began): every local date
 * keeps its own values — in the data API and in the stored readings — the
 * dates stay consecutive up to the local today in the new zone, and the
 * days after the move carry the new zone's offset.
 */
import type { Series } from '@trialwear/contract';
import { fitbitDay } from '@trialwear/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T11:40:00Z';
const MOVED = '2027-04-08T12:00:00Z';
const clock = testClock(NOW);
// Deliberately not @trialwear/zone: these check the portal's zone arithmetic (local dates and
// offsets of stored readings), so the truth comes from Intl directly.
const addDays = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const localDate = (tz: string, t: string | number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date(t));
/** The zone's offset in minutes at an instant. */
function offsetAt(tz: string, t: number) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(t))
      .map((x) => [x.type, x.value]),
  );
  return Math.round((Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!) - t) / 60_000);
}

describe('a Google Health participant who changes time zone mid-period', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  const newZone = (old: string) => (old.startsWith('America/') ? 'Asia/Tokyo' : 'America/Los_Angeles');

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now, env: { FITBIT_API: 'google_health' } });
    a = await teamWithRoles(t, 'Travel', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', ['steps', 'sleep_duration', 'weight']);
    ({ trialId } = await trialWithParticipants(a, 'Travel', []));
    await simControl(t, 'google-health').clock(NOW);
  });
  afterAll(() => t?.close());

  let participants = 0;
  /**
   * A participant of the test's own, linked, who moved to another zone at MOVED: the new zone, the
   * 30 local dates up to its today, the first local date begun there.
   */
  const moved = async () => {
    participants += 1;
    const pid = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `travel${participants}@x.example` })
    ).json().participantId as number;
    const healthUserId = await linkParticipant(t, a, pid, 'fitbit');
    const deviceId = (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow()
    ).id;
    const person = (await (
      await fetch(`${t.ctx.config.publicUrl}/sim/google-health/_control/person?userId=${healthUserId}`)
    ).json()) as { legacyFitbitUserId: string; zones: Array<{ timeZone: string }> };
    const legacyId = person.legacyFitbitUserId;
    const zone = newZone(person.zones[0]!.timeZone);
    await simControl(t, 'google-health').post('time-zone', {
      userId: healthUserId,
      timeZone: zone,
      from: MOVED,
    });
    const to = localDate(zone, NOW);
    const from = addDays(to, -29);
    // The first local date begun in the new zone.
    const moveDate = addDays(localDate(zone, MOVED), 1);
    return { pid, deviceId, legacyId, zone, to, from, moveDate };
  };

  const data = async (pid: number, path: string) => {
    const res = await a.as.Viewer.get(
      `/api/getFitbitServerParticipantData/${pid}/-/${encodeURIComponent(path)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { timeZone: string; series: Series[] };
    const of = (metric: string) => {
      const found = body.series.find((x) => x.metric === metric);
      if (!found) throw new Error(`no ${metric} series`);
      return found;
    };
    return { timeZone: body.timeZone, of };
  };

  it('the data API: the new zone, consecutive local dates to its today, each date with its own values', async () => {
    const { pid, legacyId, zone, from, to } = await moved();
    const steps = await data(pid, `/activities/steps/date/${from}/${to}.json`);
    expect(steps.timeZone).toBe(zone);
    const rows = steps.of('steps').days ?? [];
    expect(rows.map((r) => r.date)).toEqual(Array.from({ length: 30 }, (_, i) => addDays(from, i)));
    for (const r of rows) expect(r.value, r.date).toBe(fitbitDay(legacyId, r.date).steps);
    const sleep = (await data(pid, `/sleep/date/${from}/${to}.json`)).of('sleep_duration').points ?? [];
    for (const s of sleep) expect(s.value, s.date).toBe(fitbitDay(legacyId, s.date).sleep!.minutesAsleep);
    expect(sleep.length).toBe(
      Array.from({ length: 30 }, (_, i) => addDays(from, i)).filter((d) => fitbitDay(legacyId, d).sleep)
        .length,
    );
    const weights = (await data(pid, `/body/log/weight/date/${from}/${to}.json`)).of('weight').points ?? [];
    expect(weights.length).toBeGreaterThan(0);
    for (const w of weights) {
      // Weighed at 07:38:14 local time, wherever the participant was that morning.
      expect(w.time).toBe('07:38:14');
      expect(w.value, w.date).toBe(fitbitDay(legacyId, w.date).weightKg);
    }
  });

  it('the stored readings keep each local date’s values; days after the move carry the new offset', async () => {
    const { pid, deviceId, legacyId, zone, from, moveDate } = await moved();
    await simControl(t, 'google-health').post('reset-rate-limit');
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status, r.errors.join('; ')).toBe('synced');
    const rows = await t.ctx.db
      .selectFrom('device_readings')
      .select(['metric_key', 'measured_at', 'local_date', 'local_time', 'utc_offset_minutes', 'value'])
      .where('participant_id', '=', pid)
      .orderBy('measured_at')
      .execute();
    const steps = rows.filter((x) => x.metric_key === 'steps');
    expect(steps.map((x) => x.local_date)).toEqual(Array.from({ length: 30 }, (_, i) => addDays(from, i)));
    for (const s of steps) {
      expect(s.value, s.local_date).toBe(fitbitDay(legacyId, s.local_date).steps);
      if (s.local_date >= moveDate) {
        expect(s.utc_offset_minutes, s.local_date).toBe(offsetAt(zone, s.measured_at.getTime()));
        expect(localDate(zone, s.measured_at.getTime()), s.local_date).toBe(s.local_date);
      }
    }
    for (const w of rows.filter((x) => x.metric_key === 'weight')) {
      expect(w.local_time).toBe('07:38:14');
      expect(w.value, w.local_date).toBe(fitbitDay(legacyId, w.local_date).weightKg);
    }
    for (const s of rows.filter((x) => x.metric_key === 'sleep_duration'))
      expect(s.value, s.local_date).toBe(fitbitDay(legacyId, s.local_date).sleep!.minutesAsleep);
  });
});
