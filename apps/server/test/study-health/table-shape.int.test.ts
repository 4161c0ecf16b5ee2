/*
 * GET /api/studyHealth/trials/{id} writes its answer with JSON.stringify, not
 * through the zod response schema (decision 035: validating 90,000 day
 * objects per answer cost more than the query). Here the schema is held to
 * the answer instead: every participant kind (two devices' rows merged into a
 * day, one device's day as stored, a link with nothing known, no link) parses,
 * and parsing drops nothing, so the answer has no key the contract (and the
 * OpenAPI document) does not name.
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
      expect(pa.days).toEqual([
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
});
