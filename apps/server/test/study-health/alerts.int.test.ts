/*
 * Study health's alerts (issue #23 §4, §8): the list of a trial (open first,
 * newest first, or one state), and acknowledging with a note — once, by an
 * Admin or a User of the trial, with an audit row; another trial's or team's
 * alert is the 404 of one that does not exist. Alerts are inserted as the
 * rules' evaluation will open them.
 */
import { STUDY_HEALTH_MESSAGES as M } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows } from '../support/audit.js';
import { addParticipant, type HealthTeam, healthTeam, insertAlert } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('study health alerts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const listUrl = (trialId: number, status?: string) =>
    `/api/studyHealth/trials/${trialId}/alerts${status ? `?status=${status}` : ''}`;
  const ackUrl = (alertId: number) => `/api/studyHealth/alerts/${alertId}/acknowledge`;
  const alertRow = (id: number) =>
    t.ctx.db
      .selectFrom('health_alerts')
      .select(['acknowledged_at', 'acknowledged_by', 'note'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** A participant of each trial, and an open alert of each. */
  async function world(): Promise<HealthTeam & { participant: number; alert: number; otherAlert: number }> {
    const h = await healthTeam(t);
    const p = await addParticipant(t, h.team, h.trialId, `p${h.trialId}@alerts.example`);
    const q = await addParticipant(t, h.team, h.otherTrialId, `q${h.trialId}@alerts.example`);
    const base = { teamId: h.team.teamId, openedAt: '2026-03-01T08:00:00Z' };
    const alert = await insertAlert(t, {
      ...base,
      trialId: h.trialId,
      participantId: p.id,
      ruleKey: 'noSync',
    });
    const otherAlert = await insertAlert(t, {
      ...base,
      trialId: h.otherTrialId,
      participantId: q.id,
      ruleKey: 'noSync',
    });
    return { ...h, participant: p.id, alert, otherAlert };
  }

  it('lists open first, then acknowledged, then closed, newest first; a state narrows it', async () => {
    const h = await healthTeam(t);
    const p = await addParticipant(t, h.team, h.trialId, 'list@alerts.example');
    const q = await addParticipant(t, h.team, h.otherTrialId, 'other-trial@alerts.example');
    const base = { teamId: h.team.teamId, trialId: h.trialId, participantId: p.id };
    const closed = await insertAlert(t, {
      ...base,
      ruleKey: 'lowWear',
      openedAt: '2026-03-05T08:00:00Z',
      closedAt: '2026-03-06T08:00:00Z',
      detail: { days: ['2026-03-04', '2026-03-05'], wearMinutes: [120, 0] },
    });
    const openOld = await insertAlert(t, { ...base, ruleKey: 'noSync', openedAt: '2026-03-01T08:00:00Z' });
    const acknowledged = await insertAlert(t, {
      ...base,
      ruleKey: 'lowBattery',
      openedAt: '2026-03-04T08:00:00Z',
      acknowledged: { by: h.team.userIds.User, at: '2026-03-04T09:00:00Z', note: 'Charger sent' },
    });
    const openNew = await insertAlert(t, { ...base, ruleKey: 'linkError', openedAt: '2026-03-03T08:00:00Z' });
    await insertAlert(t, {
      teamId: h.team.teamId,
      trialId: h.otherTrialId,
      participantId: q.id,
      ruleKey: 'noSync',
      openedAt: '2026-03-07T08:00:00Z',
    });

    const all = await h.team.as.Viewer.get(listUrl(h.trialId));
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().map((a: { id: number }) => a.id)).toEqual([openNew, openOld, acknowledged, closed]);
    expect(all.json()[2]).toEqual({
      id: acknowledged,
      participantId: p.id,
      participantCode: p.code,
      ruleKey: 'lowBattery',
      openedAt: '2026-03-04T08:00:00.000Z',
      closedAt: null,
      acknowledgedAt: '2026-03-04T09:00:00.000Z',
      acknowledgedBy: h.team.userIds.User,
      acknowledgedByName: expect.stringMatching(/^User /),
      note: 'Charger sent',
      detail: {},
    });
    expect(all.json()[3]).toMatchObject({
      closedAt: '2026-03-06T08:00:00.000Z',
      detail: { days: ['2026-03-04', '2026-03-05'], wearMinutes: [120, 0] },
    });
    const ids = async (status: string) =>
      (await h.team.as.User.get(listUrl(h.trialId, status))).json().map((a: { id: number }) => a.id);
    expect(await ids('open')).toEqual([openNew, openOld]);
    expect(await ids('acknowledged')).toEqual([acknowledged]);
    expect(await ids('closed')).toEqual([closed]);
    const bad = await h.team.as.Admin.get(listUrl(h.trialId, 'pending'));
    expect(bad.statusCode).toBe(400);
  });

  it('only one open alert per participant and rule can exist', async () => {
    const h = await world();
    const again = insertAlert(t, {
      teamId: h.team.teamId,
      trialId: h.trialId,
      participantId: h.participant,
      ruleKey: 'noSync',
      openedAt: '2026-03-02T08:00:00Z',
    });
    await expect(again).rejects.toMatchObject({ code: '23505', constraint: 'health_alerts_one_open' });
    // Once closed, the rule may open a new one.
    await t.ctx.db
      .updateTable('health_alerts')
      .set({ closed_at: new Date('2026-03-02T00:00:00Z') })
      .where('id', '=', h.alert)
      .execute();
    await insertAlert(t, {
      teamId: h.team.teamId,
      trialId: h.trialId,
      participantId: h.participant,
      ruleKey: 'noSync',
      openedAt: '2026-03-02T08:00:00Z',
    });
  });

  it('a User of the trial acknowledges with a note, once; one audit row', async () => {
    const h = await world();
    const res = await h.team.as.User.post(ackUrl(h.alert), { note: '  Called: tracker left at home  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: h.alert,
      ruleKey: 'noSync',
      acknowledgedBy: h.team.userIds.User,
      note: 'Called: tracker left at home',
      closedAt: null,
    });
    const row = await alertRow(h.alert);
    expect(row).toMatchObject({ acknowledged_by: h.team.userIds.User, note: 'Called: tracker left at home' });
    expect(res.json().acknowledgedAt).toBe(row.acknowledged_at?.toISOString());

    const twice = await h.team.as.Admin.post(ackUrl(h.alert), { note: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: M.alreadyAcknowledged, reason: 'Conflict' });
    expect(await alertRow(h.alert)).toEqual(row);

    const audit = (
      await auditRows(t.ctx.db, 'study_health.alert.acknowledged', [
        'entity_type',
        'entity_id',
        'user_id',
        'after',
      ])
    ).filter((r) => r.entity_id === String(h.alert));
    expect(audit).toEqual([
      {
        entity_type: 'health_alert',
        entity_id: String(h.alert),
        user_id: h.team.userIds.User,
        after: {
          trialId: h.trialId,
          ruleKey: 'noSync',
          acknowledgedAt: res.json().acknowledgedAt,
          acknowledgedBy: h.team.userIds.User,
          note: 'Called: tracker left at home',
        },
      },
    ]);
    // It now lists as acknowledged, not open.
    const acknowledged = await h.team.as.Viewer.get(listUrl(h.trialId, 'acknowledged'));
    expect(acknowledged.json().map((a: { id: number }) => a.id)).toEqual([h.alert]);
  });

  it('refuses a missing or too long note (400), a Viewer (403), and changes nothing', async () => {
    const h = await world();
    for (const [body, message] of [
      [{}, M.noteRequired],
      [{ note: '   ' }, M.noteRequired],
      [{ note: 'x'.repeat(1001) }, M.noteTooLong],
    ] as const) {
      const res = await h.team.as.Admin.post(ackUrl(h.alert), body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ path: 'note', message }]);
    }
    const viewer = await h.team.as.Viewer.post(ackUrl(h.alert), { note: 'Seen' });
    expect(viewer.statusCode).toBe(403);
    expect(await alertRow(h.alert)).toEqual({ acknowledged_at: null, acknowledged_by: null, note: null });
  });

  it("another trial's alert (for a User not on it) and another team's are the 404 of a missing one", async () => {
    const h = await world();
    const stranger = await healthTeam(t, 'Stranger');
    const missing = await h.team.as.Admin.post(ackUrl(2_000_000_000), { note: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(M.alertNotFound);
    for (const [client, id] of [
      [h.team.as.User, h.otherAlert],
      [stranger.team.as.Admin, h.alert],
      [stranger.team.as.Sys_Admin, h.alert],
    ] as const) {
      const res = await client.post(ackUrl(id), { note: 'x' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    // The lists: the User's other trial and another team's trial are 404 too.
    expect((await h.team.as.User.get(listUrl(h.otherTrialId))).statusCode).toBe(404);
    expect((await stranger.team.as.Admin.get(listUrl(h.trialId))).statusCode).toBe(404);
    for (const id of [h.alert, h.otherAlert])
      expect(await alertRow(id)).toEqual({ acknowledged_at: null, acknowledged_by: null, note: null });
    // The trial's Admin sees every trial of the team, and acknowledges the other trial's alert.
    expect((await h.team.as.Admin.post(ackUrl(h.otherAlert), { note: 'Handled' })).statusCode).toBe(200);
  });
});
