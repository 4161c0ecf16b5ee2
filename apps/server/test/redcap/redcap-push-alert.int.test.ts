/*
 * Study health's redcapPush alert (issue #25 item 3, decision 048): a push
 * that fails opens, at once, an alert for each participant the push sends
 * (those with a code: its suffix is the REDCap record id), with the push's
 * state as its detail, audited; a later push done closes them; a trial
 * without REDCap, or whose last push was done, has none.
 */
import { REDCAP_MESSAGES } from '@trialwear/contract';
import { REDCAP_API_ERRORS } from '@trialwear/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { pushDailySummaries } from '../../src/features/redcap/push.js';
import { evaluateAlerts } from '../../src/jobs/study-health/evaluate-alerts.js';
import { encryptSecret } from '../../src/security/encryption.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { trialWithParticipants } from '../support/linked-participant.js';
import { dailyProject, dailySettings, fakeRedcap, newRedcapToken } from '../support/redcap.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-03-20T12:00:00Z';
const DAY = '2027-03-19';

let t: TestApp;
let a: TeamFixture;
let trialId: number;
let otherTrialId: number;
let coded: number[];
let uncoded: number;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true, now: testClock(NOW).now });
  a = await teamWithRoles(t, 'Redcap alert', { hiddenFields: [] });
  ({ trialId } = await trialWithParticipants(a, 'Alerted', []));
  ({ trialId: otherTrialId } = await trialWithParticipants(a, 'No REDCap', [], '2'));
  const add = async (trial: number, email: string, codeSuffix?: string) => {
    const res = await a.as.Admin.post('/api/trialParticipants', {
      trialId: trial,
      email,
      ...(codeSuffix ? { codeSuffix } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().participantId as number;
  };
  coded = [await add(trialId, 'p201@alert.example', '201'), await add(trialId, 'p202@alert.example', '202')];
  uncoded = await add(trialId, 'nocode@alert.example');
  await add(otherTrialId, 'p301@alert.example', '301');
  const redcap = fakeRedcap(t);
  ({ token } = await redcap.project(dailyProject({ records: [{ record_id: '201' }, { record_id: '202' }] })));
  const saved = await a.as.Admin.put(`/api/trials/${trialId}/redcap`, dailySettings(redcap.apiUrl, token));
  expect(saved.statusCode, saved.body).toBe(200);
}, 120_000);
afterAll(() => t?.close());

const push = () => a.as.Admin.post(`/api/trials/${trialId}/redcap/push`, { from: DAY, to: DAY });
const setToken = (value: string) =>
  t.ctx.db
    .updateTable('redcap_settings')
    .set({ token_enc: encryptSecret(t.ctx.secrets.encryptionKey, value) })
    .where('trial_id', '=', trialId)
    .execute();
const pushAlerts = (trial: number) =>
  t.ctx.db
    .selectFrom('health_alerts')
    .select(['id', 'participant_id', 'detail', 'closed_at'])
    .where('trial_id', '=', trial)
    .where('rule_key', '=', 'redcapPush')
    .orderBy('id')
    .execute();
const alertAudits = (action: string, ids: number[]) =>
  t.ctx.db
    .selectFrom('audit_log')
    .select(['entity_id', 'user_id', 'after'])
    .where('action', '=', action)
    .where('entity_type', '=', 'health_alert')
    .where('entity_id', 'in', ids.map(String))
    .orderBy('id')
    .execute();
const lastLog = async () => (await a.as.Admin.get(`/api/trials/${trialId}/redcap/log`)).json().entries[0];

describe('the redcapPush study-health alert', () => {
  it('a push refused (wrong token) opens one alert per coded participant at once, audited; a later push done closes them', async () => {
    expect((await push()).statusCode).toBe(200);
    // (The file's tests share the trial: the other tests' alerts are closed by their own pushes.)
    const openOnly = async () => (await pushAlerts(trialId)).filter((r) => r.closed_at === null);
    expect(await openOnly()).toEqual([]);

    await setToken(newRedcapToken());
    const failed = await push();
    expect(failed.statusCode).toBe(502);
    const message = REDCAP_MESSAGES.refused(403, REDCAP_API_ERRORS.noPermission);
    const log = await lastLog();
    expect(log).toMatchObject({ status: 'failed', error: message, willRetry: false });

    // Opened by the push itself (no evaluation run in between), for 201 and 202, not the participant without a code.
    const open = await openOnly();
    expect(open.map((r) => r.participant_id).sort()).toEqual([...coded].sort());
    expect(open.map((r) => r.participant_id)).not.toContain(uncoded);
    for (const r of open) {
      expect(r.closed_at).toBeNull();
      expect(r.detail).toEqual({
        pushId: log.id,
        failedAt: expect.any(String),
        error: message,
        willRetry: false,
      });
      expect(Date.parse((r.detail as { failedAt: string }).failedAt)).toBe(Date.parse(log.finishedAt));
    }
    const opened = await alertAudits(
      'study_health.alert.opened',
      open.map((r) => r.id),
    );
    expect(opened).toHaveLength(2);
    for (const row of opened) {
      expect(row.user_id).toBeNull();
      expect(row.after).toMatchObject({
        ruleKey: 'redcapPush',
        detail: { pushId: log.id, willRetry: false },
      });
    }
    // The hourly evaluation (this trial has no linked device) keeps them, opens nothing twice.
    expect(await evaluateAlerts(t.ctx, trialId)).toMatchObject({ trials: 1, opened: 0, closed: 0 });

    // The alert list shows them to the trial's staff.
    const list = await a.as.Admin.get(`/api/studyHealth/trials/${trialId}/alerts?status=open`);
    expect(list.statusCode, list.body).toBe(200);
    expect(
      (list.json() as Array<{ ruleKey: string }>).filter((x) => x.ruleKey === 'redcapPush'),
    ).toHaveLength(2);

    await setToken(token);
    expect((await push()).statusCode).toBe(200);
    const closed = (await pushAlerts(trialId)).filter((r) => open.some((o) => o.id === r.id));
    expect(closed.map((r) => r.id)).toEqual(open.map((r) => r.id));
    expect(await openOnly()).toEqual([]);
    for (const r of closed) expect(r.closed_at).not.toBeNull();
    const closedAudits = await alertAudits(
      'study_health.alert.closed',
      open.map((r) => r.id),
    );
    expect(closedAudits.map((r) => (r.after as { ruleKey: string }).ruleKey)).toEqual([
      'redcapPush',
      'redcapPush',
    ]);
    expect(await evaluateAlerts(t.ctx, trialId)).toMatchObject({ opened: 0, closed: 0 });
  });

  it('a nightly push failing for a while says in the detail that it will be retried', async () => {
    const redcap = fakeRedcap(t);
    await redcap.failNext(10, 500);
    const nightly = pushDailySummaries(t.ctx, systemScope.trial('fixture', a.teamId, trialId), {
      trigger: 'nightly',
      from: DAY,
      to: DAY,
      attempt: 1,
      userId: null,
      retriesLeft: true,
    });
    await expect(nightly).rejects.toThrow(/HTTP 500/);
    await redcap.failNext(0);
    const log = await lastLog();
    const open = (await pushAlerts(trialId)).filter((r) => r.closed_at === null);
    expect(open).toHaveLength(2);
    for (const r of open) expect(r.detail).toMatchObject({ pushId: log.id, willRetry: true });
    expect((await push()).statusCode).toBe(200);
    expect((await pushAlerts(trialId)).filter((r) => r.closed_at === null)).toEqual([]);
  });

  it('a trial without REDCap has no such alert', async () => {
    await evaluateAlerts(t.ctx);
    expect(await pushAlerts(otherTrialId)).toEqual([]);
    // Nor does a trial whose newest finished push was done.
    await evaluateAlerts(t.ctx, trialId);
    expect((await pushAlerts(trialId)).filter((r) => r.closed_at === null)).toEqual([]);
  });
});
