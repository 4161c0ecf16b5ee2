/*
 * GET /api/studyHealth/trials/{id} writes its answer as JSON text, each
 * participant's days as PostgreSQL wrote them, not through the zod response
 * schema (decision 035: validating, parsing and writing 90,000 day objects
 * per answer cost more than the query). Here the schema is held to the answer
 * instead: every participant kind (two devices' rows merged into a day, one
 * device's day as stored, a link with nothing known, no link) parses, and
 * parsing drops nothing, so the answer has no key the contract (and the
 * OpenAPI document) does not name. The 90-day range is read in two halves of
 * dates, joined in date order.
 */
import { studyHealthSchema } from '@trialwear/contract';
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

const clock = testClock('2026-03-10T12:00:00Z');

describe('study health table: the answer is the contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t.close());

  it('parses with the response schema and parsing removes nothing', async () => {
    const h = await healthTeam(t);
    const teamId = h.team.teamId;
    const a = await addParticipant(t, h.team, h.trialId, 'a@shape.example');
    const b = await addParticipant(t, h.team, h.trialId, 'b@shape.example');
    await addParticipant(t, h.team, h.trialId, 'c@shape.example');
    const fitbit = await insertLink(t, teamId, a.id, { lastSyncAt: '2026-03-10T08:00:00Z', battery: 12 });
    const omron = await insertLink(t, teamId, a.id, { provider: 'omron' });
    await insertLink(t, teamId, b.id, { provider: 'dexcom', status: 'pending' });
    // One date with two devices' rows (merged: metrics united and sorted), one with one row
    // whose metrics are stored out of order and twice.
    await insertHealthDay(t, {
      deviceId: fitbit,
      participantId: a.id,
      date: '2026-03-09',
      wearMinutes: 700,
      metrics: ['steps', 'heart_rate'],
    });
    await insertHealthDay(t, {
      deviceId: omron,
      participantId: a.id,
      date: '2026-03-09',
      bpReadings: 1,
      metrics: ['blood_pressure'],
    });
    await insertHealthDay(t, {
      deviceId: fitbit,
      participantId: a.id,
      date: '2026-03-08',
      wearMinutes: 0,
      metrics: ['steps', 'heart_rate', 'steps'],
    });
    // In the first half of a 90-day range (read as two halves of dates at once): joined before the rest.
    await insertHealthDay(t, {
      deviceId: fitbit,
      participantId: a.id,
      date: '2025-12-20',
      wearMinutes: 61,
      metrics: ['heart_rate'],
    });
    await insertAlert(t, {
      teamId,
      trialId: h.trialId,
      participantId: a.id,
      ruleKey: 'lowBattery',
      openedAt: '2026-03-10T09:00:00Z',
    });

    for (const query of ['', '?from=2025-12-11&to=2026-03-10']) {
      const res = await h.team.as.Viewer.get(`/api/studyHealth/trials/${h.trialId}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const parsed = studyHealthSchema.safeParse(body);
      expect(parsed.error).toBeUndefined();
      expect(parsed.data).toEqual(body);
      const pa = body.participants.find((p: { participantId: number }) => p.participantId === a.id);
      const early = {
        date: '2025-12-20',
        wearMinutes: 61,
        cgmActivePercent: null,
        bpReadings: null,
        metricsPresent: ['heart_rate'],
      };
      expect(pa.days).toEqual([
        ...(query ? [early] : []),
        {
          date: '2026-03-08',
          wearMinutes: 0,
          cgmActivePercent: null,
          bpReadings: null,
          metricsPresent: ['heart_rate', 'steps'],
        },
        {
          date: '2026-03-09',
          wearMinutes: 700,
          cgmActivePercent: null,
          bpReadings: 1,
          metricsPresent: ['blood_pressure', 'heart_rate', 'steps'],
        },
      ]);
    }
  });

  it("every write keeps a day's metrics a sorted set with its JSON text (migration 020), which the answer passes on", async () => {
    const h = await healthTeam(t);
    const a = await addParticipant(t, h.team, h.trialId, 'trigger@shape.example');
    const fitbit = await insertLink(t, h.team.teamId, a.id, {});
    // Out of order, twice, and in an order where the C and a language collation differ.
    await insertHealthDay(t, {
      deviceId: fitbit,
      participantId: a.id,
      date: '2026-03-09',
      wearMinutes: 5,
      metrics: ['steps', 'heart_rate_intraday', 'heartRate', 'steps'],
    });
    const stored = () =>
      t.ctx.db
        .selectFrom('device_health_days')
        .select(['metrics_present', 'metrics_json'])
        .where('participant_device_id', '=', fitbit)
        .executeTakeFirstOrThrow();
    expect(await stored()).toEqual({
      metrics_present: ['heartRate', 'heart_rate_intraday', 'steps'],
      metrics_json: '["heartRate","heart_rate_intraday","steps"]',
    });
    // A writer that sets the JSON itself gets the set's JSON.
    await t.ctx.db
      .updateTable('device_health_days')
      .set({ metrics_json: '["not","this"]' } as never)
      .where('participant_device_id', '=', fitbit)
      .execute();
    expect((await stored()).metrics_json).toBe('["heartRate","heart_rate_intraday","steps"]');
    // NULL is refused, not turned into an empty set.
    await expect(
      t.ctx.db
        .updateTable('device_health_days')
        .set({ metrics_present: null as never })
        .where('participant_device_id', '=', fitbit)
        .execute(),
    ).rejects.toThrow(/null value in column "metrics_present"/);
    const res = await h.team.as.Viewer.get(`/api/studyHealth/trials/${h.trialId}`);
    const day = res.json().participants.find((p: { participantId: number }) => p.participantId === a.id)
      .days[0];
    expect(day.metricsPresent).toEqual(['heartRate', 'heart_rate_intraday', 'steps']);
    // As JavaScript sorts them.
    expect(day.metricsPresent).toEqual([...day.metricsPresent].sort());
  });
});
