/*
 * One person, two APIs (issue #13): for 30 days spanning a DST change, the
 * Google Health simulator's values equal the legacy Fitbit generator's for
 * the same local date: time fields across the DST change, days cut at local
 * midnight, a move to another zone mid-period, and the paired devices.
 */

import { addDays, instantOfLocal } from '@trialwear/zone';
import { describe, expect, it } from 'vitest';
import { fitbitDay, fitbitIntradaySteps } from '../fitbit/fitbit-daily.js';
import {
  civilText,
  DAYS,
  dateOf,
  healthUserId,
  legacy,
  sim,
  stateIn,
  token,
  useParitySuite,
} from './parity-suite.js';
import { api, control, gdate, type Json, link, listAll } from './test-kit.js';

describe(
  'Google Health simulator: the same person as the legacy Fitbit simulator, time zones and devices',
  { timeout: 30_000 },
  () => {
    useParitySuite();

    it('time across the DST change: each point carries the offset in force, civil times are wall-clock times', async () => {
      // The night 2026-10-31 → 11-01 crosses the change (02:00 EDT → 01:00 EST).
      const { points } = await listAll(sim, token, 'sleep', {
        filter:
          'sleep.interval.civil_end_time >= "2026-11-01" AND sleep.interval.civil_end_time < "2026-11-02"',
      });
      const s = fitbitDay(legacy, '2026-11-01').sleep;
      if (s) {
        const i = points[0].sleep.interval;
        expect(i.startUtcOffset).toBe('-14400s');
        expect(i.endUtcOffset).toBe('-18000s');
        expect(Date.parse(i.endTime) - Date.parse(i.startTime)).toBe((s.minutesAsleep + s.wake) * 60_000);
      }
      // Steps on either side of the change: local 12:xx is 16:xx UTC before, 17:xx UTC after.
      for (const [date, offset] of [
        ['2026-10-31', '-14400s'],
        ['2026-11-02', '-18000s'],
      ] as const) {
        const { points: pts } = await listAll(sim, token, 'steps', {
          filter: `steps.interval.civil_start_time >= "${date}" AND steps.interval.civil_start_time < "${addDays(date, 1)}"`,
        });
        if (!fitbitDay(legacy, date).worn) continue;
        expect(pts.length).toBeGreaterThan(0);
        for (const p of pts) {
          const i = p.steps.interval;
          expect(i.startUtcOffset).toBe(offset);
          const shift = Number(offset.replace('s', '')) * 1000;
          expect(civilText(i.civilStartTime)).toBe(
            new Date(Date.parse(i.startTime) + shift).toISOString().slice(0, 19),
          );
          expect(dateOf(i.civilStartTime.date)).toBe(date);
        }
        // Newest first.
        const starts = pts.map((p: Json) => Date.parse(p.steps.interval.startTime));
        expect([...starts].sort((a, b) => b - a)).toEqual(starts);
      }
    });

    it('daily roll-ups cut days at the user’s local midnight, not at UTC midnight', async () => {
      // A day with steps after 20:00 local (past midnight UTC in New York).
      const date = DAYS.find((d) =>
        fitbitIntradaySteps(legacy, d)
          .slice(20 * 60)
          .some((s) => s > 0),
      )!;
      const tz = 'America/New_York';
      // rollUp over the local day (physical windows) = dailyRollUp of that date; over the UTC day it differs.
      const sumOver = async (start: number, end: number) => {
        const r = await api(sim, token, '/v4/users/me/dataTypes/steps/dataPoints:rollUp', {
          range: { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString() },
          windowSize: '3600s',
        });
        return r.body.rollupDataPoints.reduce((n: number, w: Json) => n + Number(w.steps?.countSum ?? 0), 0);
      };
      const local = await sumOver(
        instantOfLocal(tz, `${date}T00:00`),
        instantOfLocal(tz, `${addDays(date, 1)}T00:00`),
      );
      expect(local).toBe(fitbitDay(legacy, date).steps);
      const utc = await sumOver(Date.parse(`${date}T00:00:00Z`), Date.parse(`${addDays(date, 1)}T00:00:00Z`));
      expect(utc).not.toBe(local);
      // Steps late in the local evening are on the next UTC date but count for the local date.
      const { points } = await listAll(sim, token, 'steps', {
        filter: `steps.interval.civil_start_time >= "${date}T20:00:00" AND steps.interval.civil_start_time < "${addDays(date, 1)}"`,
      });
      for (const p of points) {
        expect(p.steps.interval.startTime.slice(0, 10)).toBe(addDays(date, 1));
        expect(dateOf(p.steps.interval.civilStartTime.date)).toBe(date);
      }
    });

    it('a participant whose profile time zone changes mid-period keeps correct local dates', async () => {
      const t = await link(sim, stateIn('America/New_York', 1)!);
      const id = (await api(sim, t.access_token, '/v4/users/me/identity')).body;
      const person = id.legacyUserId as string;
      // Moves to Tokyo on 2026-11-05 at 12:00 UTC (after this, days begin at Tokyo midnight).
      await control(sim, 'time-zone', {
        userId: id.healthUserId,
        timeZone: 'Asia/Tokyo',
        from: '2026-11-05T12:00:00Z',
      });
      sim.clock.set(new Date('2026-11-05T11:00:00Z'));
      expect((await api(sim, t.access_token, '/v4/users/me/settings')).body).toMatchObject({
        timeZone: 'America/New_York',
        utcOffset: '-18000s',
      });
      sim.clock.set(new Date('2026-11-20T12:00:00Z'));
      expect((await api(sim, t.access_token, '/v4/users/me/settings')).body).toMatchObject({
        timeZone: 'Asia/Tokyo',
        utcOffset: '32400s',
      });
      const r = await api(sim, t.access_token, '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
        range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-11') } },
      });
      for (const p of r.body.rollupDataPoints) {
        const date = dateOf(p.civilStartTime.date);
        const d = fitbitDay(person, date);
        expect(p.steps ? Number(p.steps.countSum) : 0, date).toBe(d.steps);
      }
      for (const [date, offset] of [
        ['2026-11-04', '-18000s'],
        ['2026-11-07', '32400s'],
      ] as const) {
        if (!fitbitDay(person, date).worn) continue;
        const { points } = await listAll(sim, t.access_token, 'steps', {
          filter: `steps.interval.civil_start_time >= "${date}" AND steps.interval.civil_start_time < "${addDays(date, 1)}"`,
        });
        expect(points.length).toBeGreaterThan(0);
        for (const p of points) {
          expect(p.steps.interval.startUtcOffset).toBe(offset);
          expect(dateOf(p.steps.interval.civilStartTime.date)).toBe(date);
        }
      }
      const person2 = await fetch(`${sim.base}/_control/person?userId=${id.healthUserId}`);
      expect(((await person2.json()) as Json).zones).toEqual([
        { from: null, timeZone: 'America/New_York' },
        { from: '2026-11-05T12:00:00.000Z', timeZone: 'Asia/Tokyo' },
      ]);
    });

    it('paired devices: the legacy devices with battery, type and last sync as a UTC instant', async () => {
      const r = await api(sim, token, '/v4/users/me/pairedDevices');
      expect(r.status).toBe(200);
      const { fitbitDevices } = await import('../fitbit/fitbit-data.js');
      const legacyDevices = fitbitDevices(legacy, sim.clock.now());
      expect(r.body.pairedDevices.length).toBe(legacyDevices.length);
      for (const [i, d] of legacyDevices.entries()) {
        const g = r.body.pairedDevices[i];
        expect(g).toMatchObject({
          name: `users/me/pairedDevices/${d.id}`,
          deviceType: d.type,
          batteryStatus: d.battery,
          batteryLevel: d.batteryLevel,
          deviceVersion: d.deviceVersion,
          macAddress: d.mac,
        });
        expect(g.lastSyncTime).toMatch(/Z$/);
        expect(new Date(Date.parse(g.lastSyncTime) - 5 * 3_600_000).toISOString().slice(0, 23)).toBe(
          d.lastSyncTime,
        );
      }
      await control(sim, 'user', {
        userId: healthUserId,
        tracker: { batteryLevel: 3, batteryStatus: 'Empty', lastSyncTime: '2026-11-19T08:00:00Z' },
      });
      const after = await api(sim, token, '/v4/users/me/pairedDevices?pageSize=1');
      expect(after.body.pairedDevices).toHaveLength(1);
      expect(after.body.pairedDevices[0]).toMatchObject({
        batteryLevel: 3,
        batteryStatus: 'Empty',
        lastSyncTime: '2026-11-19T08:00:00Z',
      });
      const one = await api(
        sim,
        token,
        `/v4/users/me/pairedDevices/${after.body.pairedDevices[0].name.split('/').pop()}`,
      );
      expect(one.body).toEqual(after.body.pairedDevices[0]);
      expect((await api(sim, token, '/v4/users/me/pairedDevices/999')).status).toBe(404);
    });
  },
);
