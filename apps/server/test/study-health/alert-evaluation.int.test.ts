/*
 * Study health's alerts (issue #23 item 4) from stored days and device
 * state: an alert opens once per participant × rule while the rule holds
 * (a re-run raises nothing twice), closes by itself when the condition
 * clears, and each opening and closing has its audit row; another trial's
 * participants are evaluated with their own trial's rules.
 */
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { evaluateAlerts, evaluateTrialAlerts } from '../../src/jobs/study-health/evaluate-alerts.js';
import { addParticipant, healthTeam, insertHealthDay, insertLink } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

// 15:00 UTC on 26 November 2026; the trials' zone is UTC (no participant has a stored zone).
const NOW = '2026-11-26T15:00:00Z';
const TODAY = '2026-11-26';
const clock = testClock(NOW);

describe('study health: alerts open once, close by themselves', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t?.close());

  const alerts = (participantId: number) =>
    t.ctx.db
      .selectFrom('health_alerts')
      .select(['id', 'rule_key', 'opened_at', 'closed_at', 'detail'])
      .where('participant_id', '=', participantId)
      .orderBy('id')
      .execute();
  const audits = (ids: number[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : t.ctx.db
          .selectFrom('audit_log')
          .select(['action', 'entity_id', 'user_id'])
          .where('entity_type', '=', 'health_alert')
          .where('entity_id', 'in', ids.map(String))
          .orderBy('id')
          .execute();

  let seq = 0;
  /** A participant with a linked tracker and its wear of the last days (oldest first, ending today). */
  const wearer = async (wear: Array<number | null>, link: Parameters<typeof insertLink>[3] = {}) => {
    const h = await healthTeam(t);
    const p = await addParticipant(t, h.team, h.trialId, `w${++seq}@x.example`);
    const deviceId = await insertLink(t, h.team.teamId, p.id, {
      lastSyncAt: '2026-11-26T14:00:00Z',
      battery: 80,
      ...link,
    });
    for (const [i, w] of wear.entries())
      await insertHealthDay(t, {
        deviceId,
        participantId: p.id,
        date: addDays(TODAY, i - wear.length + 1),
        wearMinutes: w,
      });
    return { h, p, deviceId, scope: systemScope.trial('fixture', h.team.teamId, h.trialId) };
  };

  it('low wear on the last 2 complete days opens one alert, with what it saw, audited; a re-run opens nothing', async () => {
    const { p, scope } = await wearer([900, 300, 200, 50]);
    expect(await evaluateTrialAlerts(t.ctx, scope)).toEqual({ opened: 1, closed: 0 });
    const [alert] = await alerts(p.id);
    expect(alert).toMatchObject({ rule_key: 'lowWear', closed_at: null });
    expect(alert!.opened_at.toISOString()).toBe(new Date(NOW).toISOString());
    expect(alert!.detail).toEqual({
      minHours: 10,
      days: [
        { date: '2026-11-24', wearMinutes: 300 },
        { date: '2026-11-25', wearMinutes: 200 },
      ],
    });
    expect(await evaluateTrialAlerts(t.ctx, scope)).toEqual({ opened: 0, closed: 0 });
    expect(await alerts(p.id)).toHaveLength(1);
    expect(await audits([alert!.id])).toEqual([
      { action: 'study_health.alert.opened', entity_id: String(alert!.id), user_id: null },
    ]);
  });

  it('the condition clears (a late upload shows the wear): the alert closes by itself, audited; it can open again later', async () => {
    const { p, deviceId, scope } = await wearer([900, 300, 200, 50]);
    await evaluateTrialAlerts(t.ctx, scope);
    await t.ctx.db
      .updateTable('device_health_days')
      .set({ wear_minutes: 800 })
      .where('participant_device_id', '=', deviceId)
      .where('local_date', '=', '2026-11-25')
      .execute();
    expect(await evaluateTrialAlerts(t.ctx, scope)).toEqual({ opened: 0, closed: 1 });
    const [closed] = await alerts(p.id);
    expect(closed!.closed_at?.toISOString()).toBe(new Date(NOW).toISOString());
    expect((await audits([closed!.id])).map((a) => a.action)).toEqual([
      'study_health.alert.opened',
      'study_health.alert.closed',
    ]);
    // Low again: a new alert, the closed one stays closed.
    await t.ctx.db
      .updateTable('device_health_days')
      .set({ wear_minutes: 10 })
      .where('participant_device_id', '=', deviceId)
      .where('local_date', '=', '2026-11-25')
      .execute();
    expect(await evaluateTrialAlerts(t.ctx, scope)).toEqual({ opened: 1, closed: 0 });
    expect((await alerts(p.id)).map((a) => [a.rule_key, a.closed_at === null])).toEqual([
      ['lowWear', false],
      ['lowWear', true],
    ]);
  });

  it("no sync, low battery and a broken link; a trial's saved rules switch one off", async () => {
    const { h, p, scope } = await wearer([900, 900, 900, 100], {
      lastSyncAt: '2026-11-24T14:00:00Z',
      battery: 9,
    });
    await evaluateTrialAlerts(t.ctx, scope);
    expect((await alerts(p.id)).map((a) => a.rule_key).sort()).toEqual(['lowBattery', 'noSync']);
    // The Admin switches the battery rule off: that alert closes at the next evaluation.
    const rules = (await h.team.as.Admin.get(`/api/studyHealth/trials/${h.trialId}/rules`)).json();
    const { isDefault: _d, updatedAt: _u, ...body } = rules;
    const put = await h.team.as.Admin.put(`/api/studyHealth/trials/${h.trialId}/rules`, {
      ...body,
      lowBattery: { ...body.lowBattery, enabled: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await evaluateTrialAlerts(t.ctx, scope)).toEqual({ opened: 0, closed: 1 });
    // The link errors: always on.
    await t.ctx.db
      .updateTable('participant_devices')
      .set({ authorization_status: 'error' })
      .where('participant_id', '=', p.id)
      .execute();
    await evaluateTrialAlerts(t.ctx, scope);
    const open = (await alerts(p.id)).filter((a) => a.closed_at === null).map((a) => a.rule_key);
    // An errored link is no longer a linked device: its no-sync alert closes, the link's opens.
    expect(open).toEqual(['linkError']);
  });

  it('every trial with linked devices is evaluated (the job), each with its own participants', async () => {
    const a = await wearer([900, 100, 100, 0]);
    const b = await wearer([900, 900, 900, 0]);
    const summary = await evaluateAlerts(t.ctx);
    expect(summary.trials).toBeGreaterThanOrEqual(2);
    expect((await alerts(a.p.id)).map((x) => x.rule_key)).toEqual(['lowWear']);
    expect(await alerts(b.p.id)).toEqual([]);
    // A second run changes nothing for them.
    await evaluateAlerts(t.ctx);
    expect(await alerts(a.p.id)).toHaveLength(1);
  });
});
