/*
 * The navigation's badge (issue #23 §4): GET /api/studyHealth/alertCount
 * counts the open alerts — not closed, not acknowledged — of the trials the
 * signed-in user sees: an Admin all of the team's, a User or Viewer only the
 * trials they are on; another team's alerts never.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParticipant, healthTeam, insertAlert } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('study health alert count', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const url = '/api/studyHealth/alertCount';

  it('counts open alerts of the visible trials only; acknowledged and closed ones do not count', async () => {
    const h = await healthTeam(t, 'Count');
    const other = await healthTeam(t, 'Count Other');
    const p = await addParticipant(t, h.team, h.trialId, `p${h.trialId}@count.example`);
    const q = await addParticipant(t, h.team, h.otherTrialId, `q${h.trialId}@count.example`);
    const o = await addParticipant(t, other.team, other.trialId, `o${other.trialId}@count.example`);
    const openedAt = '2026-03-01T08:00:00Z';
    const base = { teamId: h.team.teamId, trialId: h.trialId, participantId: p.id, openedAt };
    await insertAlert(t, { ...base, ruleKey: 'noSync' });
    await insertAlert(t, { ...base, ruleKey: 'lowBattery' });
    await insertAlert(t, {
      ...base,
      ruleKey: 'lowWear',
      acknowledged: { by: h.team.userIds.Admin, at: '2026-03-02T08:00:00Z', note: 'Called' },
    });
    await insertAlert(t, { ...base, ruleKey: 'linkError', closedAt: '2026-03-02T08:00:00Z' });
    // The trial the User and the Viewer are not on.
    await insertAlert(t, { ...base, trialId: h.otherTrialId, participantId: q.id, ruleKey: 'noSync' });
    // Another team's.
    await insertAlert(t, {
      teamId: other.team.teamId,
      trialId: other.trialId,
      participantId: o.id,
      ruleKey: 'noSync',
      openedAt,
    });

    const count = async (role: 'Sys_Admin' | 'Admin' | 'User' | 'Viewer') => {
      const res = await h.team.as[role].get(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await count('Sys_Admin')).toEqual({ open: 3 });
    expect(await count('Admin')).toEqual({ open: 3 });
    expect(await count('User')).toEqual({ open: 2 });
    expect(await count('Viewer')).toEqual({ open: 2 });
    expect((await other.team.as.Admin.get(url)).json()).toEqual({ open: 1 });
  });

  it('acknowledging an alert takes it off the count', async () => {
    const h = await healthTeam(t, 'Count Ack');
    const p = await addParticipant(t, h.team, h.trialId, `ack${h.trialId}@count.example`);
    const alert = await insertAlert(t, {
      teamId: h.team.teamId,
      trialId: h.trialId,
      participantId: p.id,
      ruleKey: 'noSync',
      openedAt: '2026-03-01T08:00:00Z',
    });
    expect((await h.team.as.User.get(url)).json()).toEqual({ open: 1 });
    const ack = await h.team.as.User.post(`/api/studyHealth/alerts/${alert}/acknowledge`, { note: 'Called' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect((await h.team.as.User.get(url)).json()).toEqual({ open: 0 });
    expect((await h.team.as.Admin.get(url)).json()).toEqual({ open: 0 });
  });

  it('needs a signed-in user', async () => {
    expect((await t.client().get(url)).statusCode).toBe(401);
  });
});
