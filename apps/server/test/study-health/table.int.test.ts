/*
 * The study-health page's table (issue #23 §2, §6, §8): the trial's
 * participants, their devices' state as the sync stored it (provider
 * lastSyncTime, battery, link status), their stored days of the range
 * (default the trial zone's last 14 days, at most 90; several devices' rows
 * of one date are one day), and their open alerts. Days are hand-inserted
 * rows of device_health_days; the clock is fixed.
 */
import { STUDY_HEALTH_MESSAGES as M, TRIAL_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addParticipant,
  healthTeam,
  insertAlert,
  insertHealthDay,
  insertLink,
} from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

// 2026-03-10 05:00 UTC: still 2026-03-09 in Denver (UTC−7), already the 10th in UTC.
const clock = testClock('2026-03-10T05:00:00Z');

describe('study health table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t.close());

  const tableUrl = (trialId: number, query = '') => `/api/studyHealth/trials/${trialId}${query}`;

  it('answers participants with devices, merged days of the range and open alerts', async () => {
    const h = await healthTeam(t);
    const teamId = h.team.teamId;
    const a = await addParticipant(t, h.team, h.trialId, 'a@table.example');
    const b = await addParticipant(t, h.team, h.trialId, 'b@table.example');
    const c = await addParticipant(t, h.team, h.trialId, 'c@table.example');
    const elsewhere = await addParticipant(t, h.team, h.otherTrialId, 'x@table.example');

    // a: a Fitbit tracker (battery 40 %) and a Dexcom CGM whose link errored.
    const fitbit = await insertLink(t, teamId, a.id, {
      lastSyncAt: '2026-03-09T22:15:00Z',
      battery: 40,
    });
    const dexcom = await insertLink(t, teamId, a.id, {
      provider: 'dexcom',
      status: 'error',
      lastSyncAt: '2026-03-07T10:00:00Z',
    });
    // b: an Omron monitor, consent pending, nothing known yet; c: no link.
    const omron = await insertLink(t, teamId, b.id, { provider: 'omron', status: 'pending' });
    const other = await insertLink(t, teamId, elsewhere.id, { battery: 5 });

    await insertHealthDay(t, {
      deviceId: fitbit,
      participantId: a.id,
      date: '2026-03-09',
      wearMinutes: 840,
      metrics: ['steps', 'heart_rate'],
    });
    await insertHealthDay(t, {
      deviceId: dexcom,
      participantId: a.id,
      date: '2026-03-09',
      cgmActivePercent: 82.5,
      metrics: ['glucose', 'steps'],
    });
    // A day synced as not worn (0), and a day the provider has not answered for (null): both stored.
    await insertHealthDay(t, { deviceId: fitbit, participantId: a.id, date: '2026-03-08', wearMinutes: 0 });
    await insertHealthDay(t, {
      deviceId: fitbit,
      participantId: a.id,
      date: '2026-03-07',
      wearMinutes: null,
    });
    // Outside the default range (2026-02-25 … 2026-03-10 in UTC).
    await insertHealthDay(t, { deviceId: fitbit, participantId: a.id, date: '2026-02-24', wearMinutes: 600 });
    await insertHealthDay(t, {
      deviceId: omron,
      participantId: b.id,
      date: '2026-03-02',
      bpReadings: 2,
      metrics: ['blood_pressure'],
    });
    await insertHealthDay(t, {
      deviceId: other,
      participantId: elsewhere.id,
      date: '2026-03-09',
      wearMinutes: 1,
    });

    const base = { teamId, trialId: h.trialId, participantId: a.id };
    await insertAlert(t, { ...base, ruleKey: 'linkError', openedAt: '2026-03-07T11:00:00Z' });
    await insertAlert(t, {
      ...base,
      ruleKey: 'lowWear',
      openedAt: '2026-03-08T11:00:00Z',
      acknowledged: { by: h.team.userIds.Admin, at: '2026-03-09T08:00:00Z', note: 'Called' },
    });
    await insertAlert(t, {
      ...base,
      ruleKey: 'lowBattery',
      openedAt: '2026-03-01T11:00:00Z',
      closedAt: '2026-03-02T11:00:00Z',
    });

    const res = await h.team.as.Viewer.get(tableUrl(h.trialId));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      trialId: h.trialId,
      timezone: 'UTC',
      from: '2026-02-25',
      to: '2026-03-10',
      digestSubscribed: false,
      rules: { timezone: 'UTC', lowWear: { enabled: true, minHours: 10, days: 2 } },
    });
    expect(body.participants.map((p: { participantId: number }) => p.participantId)).toEqual([
      a.id,
      b.id,
      c.id,
    ]);
    const [pa, pb, pc] = body.participants;
    expect(pa).toEqual({
      participantId: a.id,
      participantCode: a.code,
      lastSyncAt: '2026-03-07T10:00:00.000Z',
      batteryLevel: 40,
      linkStatus: 'errored',
      devices: [
        {
          participantDeviceId: fitbit,
          provider: 'fitbit',
          linkStatus: 'active',
          lastSyncAt: '2026-03-09T22:15:00.000Z',
          batteryLevel: 40,
        },
        {
          participantDeviceId: dexcom,
          provider: 'dexcom',
          linkStatus: 'errored',
          lastSyncAt: '2026-03-07T10:00:00.000Z',
          batteryLevel: null,
        },
      ],
      days: [
        {
          date: '2026-03-07',
          wearMinutes: null,
          cgmActivePercent: null,
          bpReadings: null,
          metricsPresent: [],
        },
        { date: '2026-03-08', wearMinutes: 0, cgmActivePercent: null, bpReadings: null, metricsPresent: [] },
        {
          date: '2026-03-09',
          wearMinutes: 840,
          cgmActivePercent: 82.5,
          bpReadings: null,
          metricsPresent: ['glucose', 'heart_rate', 'steps'],
        },
      ],
      openAlerts: ['linkError', 'lowWear'],
    });
    expect(pb).toMatchObject({
      linkStatus: 'pending',
      lastSyncAt: null,
      batteryLevel: null,
      days: [
        {
          date: '2026-03-02',
          wearMinutes: null,
          cgmActivePercent: null,
          bpReadings: 2,
          metricsPresent: ['blood_pressure'],
        },
      ],
      openAlerts: [],
    });
    expect(pc).toMatchObject({ linkStatus: 'none', devices: [], days: [], openAlerts: [] });
  });

  it("defaults to the trial zone's last 14 days; from and to choose another range (at most 90 days)", async () => {
    const h = await healthTeam(t);
    const p = await addParticipant(t, h.team, h.trialId, 'range@table.example');
    const link = await insertLink(t, h.team.teamId, p.id, { providerZone: 'America/Denver' });
    for (const date of ['2026-01-01', '2026-03-09', '2026-03-10'])
      await insertHealthDay(t, { deviceId: link, participantId: p.id, date, wearMinutes: 60 });
    const dates = (body: { participants: { days: { date: string }[] }[] }) =>
      body.participants[0]!.days.map((d) => d.date);

    // The team's first participant's zone: Denver, where it is still the 9th.
    const def = (await h.team.as.User.get(tableUrl(h.trialId))).json();
    expect([def.timezone, def.from, def.to]).toEqual(['America/Denver', '2026-02-24', '2026-03-09']);
    expect(dates(def)).toEqual(['2026-03-09']);

    const chosen = (await h.team.as.User.get(tableUrl(h.trialId, '?from=2026-01-01&to=2026-03-31'))).json();
    expect([chosen.from, chosen.to]).toEqual(['2026-01-01', '2026-03-31']);
    expect(dates(chosen)).toEqual(['2026-01-01', '2026-03-09', '2026-03-10']);
    // Only `from`: 14 days from it.
    const fromOnly = (await h.team.as.User.get(tableUrl(h.trialId, '?from=2025-12-30'))).json();
    expect([fromOnly.from, fromOnly.to]).toEqual(['2025-12-30', '2026-01-12']);

    for (const [query, message] of [
      ['?from=2026-03-10&to=2026-03-01', M.rangeOrder],
      ['?from=2026-01-01&to=2026-04-01', M.rangeTooLong],
      ['?to=2026-02-30', M.dateInvalid],
      ['?from=2026-03-01&to=2026-06-30', M.rangeTooLong],
    ] as const) {
      const res = await h.team.as.User.get(tableUrl(h.trialId, query));
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBe(message);
    }
    // 90 days exactly is allowed.
    expect((await h.team.as.User.get(tableUrl(h.trialId, '?from=2026-01-01&to=2026-03-31'))).statusCode).toBe(
      200,
    );
  });

  it('a User or Viewer not on the trial, and another team, get the 404 of a trial that does not exist', async () => {
    const h = await healthTeam(t);
    const stranger = await healthTeam(t, 'Stranger');
    for (const [client, id] of [
      [h.team.as.User, h.otherTrialId],
      [h.team.as.Viewer, h.otherTrialId],
      [stranger.team.as.Admin, h.trialId],
      [stranger.team.as.Sys_Admin, h.trialId],
      [h.team.as.Admin, 2_000_000_000],
    ] as const) {
      const res = await client.get(tableUrl(id));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(TRIAL_MESSAGES.notFound);
    }
    expect((await h.team.as.Admin.get(tableUrl(h.otherTrialId))).statusCode).toBe(200);
  });
});
