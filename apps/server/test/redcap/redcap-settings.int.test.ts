/*
 * A trial's REDCap settings (issue #25 item 3, decision 048) against the
 * fake REDCap over loopback HTTP: saved only once REDCap confirms the token,
 * every field, the repeating instrument and the event; the token sealed and
 * never answered; Test connection says what it found or REDCap's error;
 * every change and refusal audited; roles and scope.
 */
import { REDCAP_MESSAGES } from '@trialwear/contract';
import { REDCAP_API_ERRORS } from '@trialwear/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows } from '../support/audit.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { trialWithParticipants } from '../support/linked-participant.js';
import { dailyProject, dailySettings, fakeRedcap, newRedcapToken } from '../support/redcap.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let a: TeamFixture;
let b: TeamFixture;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  a = await teamWithRoles(t, 'Redcap settings A');
  b = await teamWithRoles(t, 'Redcap settings B');
}, 60_000);
afterAll(() => t?.close());

const url = (trialId: number, tail = '') => `/api/trials/${trialId}/redcap${tail}`;

describe('REDCap settings', () => {
  it('saves settings REDCap confirms, never answers the token, and seals it at rest', async () => {
    const { trialId } = await trialWithParticipants(a, 'Saves', [], '101');
    const redcap = fakeRedcap(t);
    const { token } = await redcap.project(dailyProject());
    expect((await a.as.Admin.get(url(trialId))).json()).toEqual({ settings: null });
    const saved = await a.as.Admin.put(url(trialId), dailySettings(redcap.apiUrl, token.toLowerCase()));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(token);
    expect(saved.json().settings).toMatchObject({
      apiUrl: redcap.apiUrl,
      tokenSet: true,
      instrument: 'wearable_daily',
      eventName: null,
      fieldMap: { steps: 'steps', mean_glucose: 'glucose_mean' },
      pushEnabled: true,
    });
    const got = await a.as.Admin.get(url(trialId));
    expect(got.json()).toEqual(saved.json());
    const row = await t.ctx.db
      .selectFrom('redcap_settings')
      .selectAll()
      .where('trial_id', '=', trialId)
      .executeTakeFirstOrThrow();
    expect(row.token_enc.startsWith('v2.')).toBe(true);
    expect(row.token_enc).not.toContain(token);
    // Saved again without a token: the stored one is kept.
    const again = await a.as.Admin.put(url(trialId), {
      ...dailySettings(redcap.apiUrl, ''),
      pushEnabled: false,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().settings.pushEnabled).toBe(false);
    const audits = (
      await auditRows(t.ctx.db, 'redcap.settings.updated', ['entity_id', 'before', 'after'])
    ).filter((r) => r.entity_id === String(trialId));
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain(token);
    expect(audits[0]!.after).toMatchObject({ pushEnabled: false, tokenChanged: false });
  });

  it('refuses a field map REDCap does not know, naming each bad field; nothing saved, the refusal audited', async () => {
    const { trialId } = await trialWithParticipants(a, 'Bad fields', [], '102');
    const redcap = fakeRedcap(t);
    const { token } = await redcap.project(dailyProject());
    const res = await a.as.Admin.put(url(trialId), {
      ...dailySettings(redcap.apiUrl, token),
      emailField: 'e_mail',
      dateField: 'steps',
      fieldMap: { steps: 'stepz', resting_heart_rate: 'email', weight: 'steps' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'emailField', message: REDCAP_MESSAGES.unknownField('e_mail') },
      { path: 'dateField', message: REDCAP_MESSAGES.dateFieldNotDate('steps') },
      { path: 'fieldMap.steps', message: REDCAP_MESSAGES.unknownField('stepz') },
      {
        path: 'fieldMap.resting_heart_rate',
        message: REDCAP_MESSAGES.notOnInstrument('email', 'wearable_daily'),
      },
      { path: 'fieldMap.weight', message: REDCAP_MESSAGES.sameField('steps') },
    ]);
    expect(res.json().message).toBe(REDCAP_MESSAGES.unknownField('e_mail'));
    expect((await a.as.Admin.get(url(trialId))).json()).toEqual({ settings: null });
    const refused = (await auditRows(t.ctx.db, 'redcap.settings.refused', ['entity_id', 'after'])).filter(
      (r) => r.entity_id === String(trialId),
    );
    expect(refused).toHaveLength(1);
    expect(JSON.stringify(refused[0]!.after)).not.toContain(token);
  });

  it('refuses an instrument that does not repeat, and a longitudinal project without its event', async () => {
    const { trialId } = await trialWithParticipants(a, 'Instrument', [], '103');
    const redcap = fakeRedcap(t);
    const classic = await redcap.project(dailyProject({ repeating: [] }));
    const notRepeating = await a.as.Admin.put(url(trialId), dailySettings(redcap.apiUrl, classic.token));
    expect(notRepeating.statusCode).toBe(400);
    expect(notRepeating.json().errors).toEqual([
      { path: 'instrument', message: REDCAP_MESSAGES.notRepeating('wearable_daily') },
    ]);
    const events = [{ event_name: 'Daily', arm_num: 1, unique_event_name: 'daily_arm_1' }];
    const longitudinal = await redcap.project(
      dailyProject({
        is_longitudinal: true,
        events,
        repeating: [{ form_name: 'wearable_daily', event_name: 'daily_arm_1' }],
      }),
    );
    const noEvent = await a.as.Admin.put(url(trialId), dailySettings(redcap.apiUrl, longitudinal.token));
    expect(noEvent.json().errors).toEqual([{ path: 'eventName', message: REDCAP_MESSAGES.eventRequired }]);
    const wrongEvent = await a.as.Admin.put(url(trialId), {
      ...dailySettings(redcap.apiUrl, longitudinal.token),
      eventName: 'weekly_arm_1',
    });
    expect(wrongEvent.json().errors).toEqual([
      { path: 'eventName', message: REDCAP_MESSAGES.unknownEvent('weekly_arm_1') },
    ]);
    const ok = await a.as.Admin.put(url(trialId), {
      ...dailySettings(redcap.apiUrl, longitudinal.token),
      eventName: 'daily_arm_1',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a wrong token is a clear 400 on the token, and Test connection says what REDCap answered', async () => {
    const { trialId } = await trialWithParticipants(a, 'Wrong token', [], '104');
    const redcap = fakeRedcap(t);
    const { token } = await redcap.project(dailyProject({ project_title: 'Sleep study' }));
    const wrong = newRedcapToken();
    const res = await a.as.Admin.put(url(trialId), dailySettings(redcap.apiUrl, wrong));
    expect(res.statusCode).toBe(400);
    const message = REDCAP_MESSAGES.refused(403, REDCAP_API_ERRORS.noPermission);
    expect(res.json()).toMatchObject({ message, errors: [{ path: 'token', message }] });
    expect((await a.as.Admin.get(url(trialId))).json()).toEqual({ settings: null });

    const failed = await a.as.Admin.post(url(trialId, '/test'), { apiUrl: redcap.apiUrl, token: wrong });
    expect(failed.json()).toEqual({ ok: false, message, project: null });
    const nothing = await a.as.Admin.post(url(trialId, '/test'), {});
    expect(nothing.json()).toEqual({ ok: false, message: REDCAP_MESSAGES.tokenRequired, project: null });
    const tested = await a.as.Admin.post(url(trialId, '/test'), { apiUrl: redcap.apiUrl, token });
    expect(tested.json()).toMatchObject({
      ok: true,
      project: { title: 'Sleep study', isLongitudinal: false, hasRepeatingInstruments: true },
    });
    expect(tested.json().message).toMatch(/^Connected to REDCap project \d+, "Sleep study" \(classic\)\.$/);
    expect(await a.as.Admin.put(url(trialId), dailySettings(redcap.apiUrl, token))).toHaveProperty(
      'statusCode',
      200,
    );
    expect((await a.as.Admin.post(url(trialId, '/test'))).json().ok).toBe(true);
    const unreachable = await a.as.Admin.post(url(trialId, '/test'), {
      apiUrl: 'http://127.0.0.1:9/api/',
      token,
    });
    expect(unreachable.json().ok).toBe(false);
    expect(unreachable.json().message).toMatch(/^REDCap could not be reached: /);
  });

  it('a new URL needs the token again: the stored one is never sent to another server', async () => {
    const { trialId } = await trialWithParticipants(a, 'New URL', [], '105');
    const redcap = fakeRedcap(t);
    const { token } = await redcap.project(dailyProject());
    expect((await a.as.Admin.put(url(trialId), dailySettings(redcap.apiUrl, token))).statusCode).toBe(200);
    const moved = await a.as.Admin.put(
      url(trialId),
      dailySettings(`${redcap.apiUrl}?x=1`.replace('?x=1', 'v2/'), ''),
    );
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors).toEqual([{ path: 'token', message: REDCAP_MESSAGES.tokenRequired }]);
  });

  it("is the Admin's: a User or Viewer gets 403, another team the same 404 as a missing trial", async () => {
    const { trialId } = await trialWithParticipants(a, 'Roles', [], '106');
    for (const role of ['User', 'Viewer'] as const) {
      expect((await a.as[role].get(url(trialId))).statusCode).toBe(403);
      expect(
        (await a.as[role].put(url(trialId), dailySettings('http://x.example/api/', newRedcapToken())))
          .statusCode,
      ).toBe(403);
    }
    const stranger = await b.as.Admin.get(url(trialId));
    const missing = await b.as.Admin.get(url(2_000_000_000));
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual(missing.json());
    expect((await b.as.Admin.post(url(trialId, '/test'), {})).statusCode).toBe(404);
  });
});
