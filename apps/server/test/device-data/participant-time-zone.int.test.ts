/*
 * The server runs in UTC; participants do not. At 05:30 UTC on Monday
 * 2027-03-15 it is still Sunday the 14th in Los Angeles, the day US clocks
 * went forward: the portal's dates are the participant's local dates, that
 * day has 23 hours of minutes, and Omron readings carry the new offset from
 * that morning on.
 */
import type { Series } from '@trialwear/contract';
import {
  accountFromSeed,
  fitbitDay,
  fitbitUserId,
  fitbitUserTimezone,
  omronDay,
  omronUserZone,
} from '@trialwear/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-03-15T05:30:00Z';
const DST_DAY = '2027-03-14';
const clock = testClock(NOW);
const enc = encodeURIComponent;

describe("participant's time zone (server in UTC)", () => {
  let t: TestApp;
  let a: TeamFixture;
  let fitbitPid: number;
  let omronPid: number;
  let fitbitUser: string;
  let omronUser: string;

  beforeAll(async () => {
    expect(process.env.TZ ?? 'UTC').toMatch(/^(UTC|Etc\/UTC)?$/);
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Zones', { hiddenFields: [] });
    const { trialId } = await trialWithParticipants(a, 'Zones', []);
    const clientId = (p: 'fitbit' | 'omron') => t.ctx.providers[p].settings.clientId;
    // Participants until one's simulated Fitbit user lives in Los Angeles and one's Omron user in New York.
    for (let i = 0; i < 80 && !(fitbitPid && omronPid); i++) {
      const id = (
        await a.as.Admin.post('/api/trialParticipants', { trialId, email: `tz${i}@x.example` })
      ).json().participantId as number;
      if (
        !fitbitPid &&
        fitbitUserTimezone(fitbitUserId(`${clientId('fitbit')}:${id}`)).tz === 'America/Los_Angeles'
      )
        fitbitPid = id;
      else if (
        !omronPid &&
        omronUserZone(accountFromSeed(`${clientId('omron')}:${id}`, 32)) === 'America/New_York'
      )
        omronPid = id;
    }
    await simControl(t, 'fitbit').clock(NOW);
    await simControl(t, 'omron').clock(NOW);
    fitbitUser = await linkParticipant(t, a, fitbitPid, 'fitbit');
    omronUser = await linkParticipant(t, a, omronPid, 'omron');
  });
  afterAll(() => t?.close());

  it("the overview ends on the participant's local today (the 14th), not the server's date (the 15th)", async () => {
    const res = await a.as.Viewer.get(
      `/api/getFitbitServerParticipantData/${fitbitPid}/-/${enc('/overview')}`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.timeZone).toBe('America/Los_Angeles');
    const steps = body.overview.series.steps as Array<{ date: string; value: number | null }>;
    expect(steps.at(-1)!.date).toBe(DST_DAY);
    expect(steps[0]!.date).toBe('2027-03-01');
    expect(steps.map((s) => s.value)).toEqual(steps.map((s) => fitbitDay(fitbitUser, s.date).steps || null));
    expect(body.overview.summary.subjects.steps.last7).toMatchObject({ from: '2027-03-08', to: DST_DAY });
  });

  it('the DST day in local minutes: 1380, no 02:xx, adding up to the day', async () => {
    const res = await a.as.Viewer.get(
      `/api/getFitbitServerParticipantData/${fitbitPid}/-/${enc(`/activities/steps/date/${DST_DAY}/1d/1min.json`)}`,
    );
    expect(res.statusCode).toBe(200);
    const series = (res.json().series as Series[]).find((s) => s.metric === 'steps')!;
    const points = series.points ?? [];
    expect(points).toHaveLength(1380);
    expect(points.some((e) => e.time.startsWith('02:'))).toBe(false);
    expect(points.reduce((n, e) => n + (e.value ?? 0), 0)).toBe(fitbitDay(fitbitUser, DST_DAY).steps);
    // Each minute's instant and offset: -08:00 before the change, -07:00 after it, one minute apart across it.
    const at = (time: string) => points.find((e) => e.time === time)!;
    expect(at('01:59:00')).toMatchObject({ at: `${DST_DAY}T09:59:00.000Z`, offsetMinutes: -480 });
    expect(at('03:00:00')).toMatchObject({ at: `${DST_DAY}T10:00:00.000Z`, offsetMinutes: -420 });
  });

  it('Omron readings of the change weekend: local dates and the offset of each instant', async () => {
    const res = await a.as.Viewer.post(`/api/getOmronParticipantData/${omronPid}`, {
      queryStr: { category: 'bloodPressure', since: '2027-03-13', sortOrder: 'asc', limit: 0 },
    });
    const want = ['2027-03-13', DST_DAY, '2027-03-15']
      .flatMap((d) => omronDay(omronUser, d).bloodPressure)
      .filter((r) => r.dateTimeLocal >= '2027-03-13' && Date.parse(r.dateTime) <= Date.parse(NOW))
      .sort((x, y) => Date.parse(x.dateTime) - Date.parse(y.dateTime));
    if (want.length === 0) {
      expect(res.statusCode).toBe(404);
      return;
    }
    expect(res.statusCode).toBe(200);
    const got = res.json().bloodPressure as Array<{ dateTimeLocal: string; utcOffset: string }>;
    expect(got.map((r) => [r.dateTimeLocal, r.utcOffset])).toEqual(
      want.map((r) => [r.dateTimeLocal, r.dateTimeUtcOffset]),
    );
    for (const r of got) expect(r.utcOffset).toBe(r.dateTimeLocal < `${DST_DAY}T03:00` ? '-05:00' : '-04:00');
  });
});
