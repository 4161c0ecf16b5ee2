/*
 * Study health's rules and digest opt-in (issue #23 §3, §5, §8): defaults
 * until saved (the zone from the team's first participant with a stored
 * zone, else UTC), validation with the contract's messages and nothing
 * changed, Admins edit and everyone on the trial reads, a User not on the
 * trial and another team get the same 404 as a trial that does not exist,
 * and each change is one audit row.
 */
import {
  DEFAULT_HEALTH_RULE_SETTINGS,
  type HealthRules,
  STUDY_HEALTH_MESSAGES as M,
  TRIAL_MESSAGES,
} from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows } from '../support/audit.js';
import { addParticipant, healthTeam, insertLink } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const RULES: HealthRules = {
  timezone: 'America/Denver',
  lowWear: { enabled: true, minHours: 8.5, days: 3 },
  noSync: { enabled: false, hours: 24 },
  lowBattery: { enabled: true, percent: 20 },
  lowCgmActive: { enabled: true, percent: 75, days: 1 },
  noBpReading: { enabled: false, days: 5 },
  digest: { enabled: true, localTime: '07:30' },
};

describe('study health rules', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const rulesUrl = (trialId: number) => `/api/studyHealth/trials/${trialId}/rules`;
  const auditOf = async (trialId: number, action: string) =>
    (await auditRows(t.ctx.db, action, ['entity_id', 'user_id', 'before', 'after'])).filter(
      (r) => r.entity_id === String(trialId),
    );

  it('answers the defaults until saved, in UTC when no participant has a zone', async () => {
    const { team, trialId } = await healthTeam(t);
    const res = await team.as.Viewer.get(rulesUrl(trialId));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      timezone: 'UTC',
      ...DEFAULT_HEALTH_RULE_SETTINGS,
      isDefault: true,
      updatedAt: null,
    });
    expect(DEFAULT_HEALTH_RULE_SETTINGS).toEqual({
      lowWear: { enabled: true, minHours: 10, days: 2 },
      noSync: { enabled: true, hours: 48 },
      lowBattery: { enabled: true, percent: 15 },
      lowCgmActive: { enabled: true, percent: 70, days: 2 },
      noBpReading: { enabled: true, days: 3 },
      digest: { enabled: true, localTime: '08:00' },
    });
  });

  it("defaults the zone to the team's first participant with a stored zone (the sync's before the link's)", async () => {
    const { team, trialId, otherTrialId } = await healthTeam(t);
    // The team's first participant has no link; the next one's link has a zone, the one after another.
    await addParticipant(t, team, otherTrialId, 'no-link@health.example');
    const second = await addParticipant(t, team, otherTrialId, 'zoned@health.example');
    const third = await addParticipant(t, team, trialId, 'later@health.example');
    await insertLink(t, team.teamId, third.id, { providerZone: 'Asia/Tokyo' });
    const link = await insertLink(t, team.teamId, second.id, { providerZone: 'Europe/Berlin' });
    expect((await team.as.Admin.get(rulesUrl(trialId))).json().timezone).toBe('Europe/Berlin');
    await t.ctx.db
      .updateTable('device_sync_state')
      .set({ time_zone: 'America/Los_Angeles' })
      .where('participant_device_id', '=', link)
      .execute();
    expect((await team.as.Admin.get(rulesUrl(trialId))).json().timezone).toBe('America/Los_Angeles');
  });

  it('an Admin saves the rules: every role on the trial reads them, one audit row with before and after', async () => {
    const { team, trialId } = await healthTeam(t);
    const res = await team.as.Admin.put(rulesUrl(trialId), RULES);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ...RULES, isDefault: false });
    for (const role of ['Sys_Admin', 'Admin', 'User', 'Viewer'] as const) {
      const read = await team.as[role].get(rulesUrl(trialId));
      expect(read.statusCode, role).toBe(200);
      expect(read.json(), role).toMatchObject({ ...RULES, isDefault: false });
      expect(read.json().updatedAt).toEqual(expect.any(String));
    }
    const audit = await auditOf(trialId, 'study_health.rules.updated');
    expect(audit).toEqual([
      {
        entity_id: String(trialId),
        user_id: team.userIds.Admin,
        before: { timezone: 'UTC', ...DEFAULT_HEALTH_RULE_SETTINGS },
        after: RULES,
      },
    ]);
    // A Sys_Admin saves too; the second row's before is the first's after.
    const again = { ...RULES, digest: { enabled: false, localTime: '09:15' } };
    expect((await team.as.Sys_Admin.put(rulesUrl(trialId), again)).statusCode).toBe(200);
    const rows = await auditOf(trialId, 'study_health.rules.updated');
    expect(rows.map((r) => [r.user_id, r.before, r.after])).toEqual([
      [team.userIds.Admin, { timezone: 'UTC', ...DEFAULT_HEALTH_RULE_SETTINGS }, RULES],
      [team.userIds.Sys_Admin, RULES, again],
    ]);
  });

  it('refuses bad rules with a message per field and changes nothing', async () => {
    const { team, trialId } = await healthTeam(t);
    const res = await team.as.Admin.put(rulesUrl(trialId), {
      timezone: 'Mars/Olympus',
      lowWear: { enabled: 'yes', minHours: 25, days: 0 },
      noSync: { enabled: true, hours: 1.5 },
      lowBattery: { enabled: true, percent: 100 },
      lowCgmActive: { enabled: true, percent: 0, days: 31 },
      noBpReading: { enabled: true, days: 2.5 },
      digest: { enabled: true, localTime: '24:00' },
    });
    expect(res.statusCode, res.body).toBe(400);
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect([...res.json().errors].sort(byPath)).toEqual(
      [
        { path: 'timezone', message: M.timezoneUnknown },
        { path: 'lowWear.enabled', message: M.enabled },
        { path: 'lowWear.minHours', message: M.wearHours },
        { path: 'lowWear.days', message: M.days },
        { path: 'noSync.hours', message: M.noSyncHours },
        { path: 'lowBattery.percent', message: M.batteryPercent },
        { path: 'lowCgmActive.percent', message: M.cgmPercent },
        { path: 'lowCgmActive.days', message: M.days },
        { path: 'noBpReading.days', message: M.days },
        { path: 'digest.localTime', message: M.digestTime },
      ].sort(byPath),
    );
    expect(M.wearHours).toBe('Hours must be between 1 and 24');
    // A missing section is refused too (the PUT is the whole rule set).
    const { digest: _digest, ...partial } = RULES;
    const missing = await team.as.Admin.put(rulesUrl(trialId), partial);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toEqual(['digest']);
    const read = (await team.as.Admin.get(rulesUrl(trialId))).json();
    expect(read).toMatchObject({ isDefault: true, ...DEFAULT_HEALTH_RULE_SETTINGS });
    expect(await auditOf(trialId, 'study_health.rules.updated')).toEqual([]);
    expect(
      await t.ctx.db
        .selectFrom('trial_health_rules')
        .select('trial_id')
        .where('trial_id', '=', trialId)
        .execute(),
    ).toEqual([]);
  });

  it('Viewer and User may not save (403); nothing changes', async () => {
    const { team, trialId } = await healthTeam(t);
    for (const role of ['User', 'Viewer'] as const) {
      const res = await team.as[role].put(rulesUrl(trialId), RULES);
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Unauthorized', reason: 'Forbidden' });
    }
    expect((await team.as.Admin.get(rulesUrl(trialId))).json().isDefault).toBe(true);
  });

  it('a User or Viewer not on the trial, and another team, get the 404 of a trial that does not exist', async () => {
    const { team, otherTrialId } = await healthTeam(t);
    const stranger = await healthTeam(t, 'Stranger');
    const missing = await team.as.Admin.get(rulesUrl(2_000_000_000));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(TRIAL_MESSAGES.notFound);
    for (const client of [team.as.User, team.as.Viewer, stranger.team.as.Admin, stranger.team.as.Sys_Admin]) {
      const res = await client.get(rulesUrl(otherTrialId));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    // Another team's Admin cannot save them either, and nothing is stored.
    const put = await stranger.team.as.Admin.put(rulesUrl(otherTrialId), RULES);
    expect(put.statusCode).toBe(404);
    expect(put.json().message).toBe(TRIAL_MESSAGES.notFound);
    expect((await team.as.Admin.get(rulesUrl(otherTrialId))).json().isDefault).toBe(true);
  });
});

describe('study health digest opt-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const subUrl = (trialId: number) => `/api/studyHealth/trials/${trialId}/subscription`;
  const stored = (trialId: number) =>
    t.ctx.db
      .selectFrom('health_digest_subscriptions')
      .select(['user_id', 'digest'])
      .where('trial_id', '=', trialId)
      .orderBy('user_id')
      .execute();

  it('Admin and User of the trial choose their own digest; audited; the table says it', async () => {
    const { team, trialId } = await healthTeam(t);
    const on = await team.as.User.put(subUrl(trialId), { digest: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ trialId, digest: true });
    expect((await team.as.Admin.put(subUrl(trialId), { digest: false })).statusCode).toBe(200);
    expect(await stored(trialId)).toEqual([
      { user_id: team.userIds.Admin, digest: false },
      { user_id: team.userIds.User, digest: true },
    ]);
    expect((await team.as.User.get(`/api/studyHealth/trials/${trialId}`)).json().digestSubscribed).toBe(true);
    expect((await team.as.Admin.get(`/api/studyHealth/trials/${trialId}`)).json().digestSubscribed).toBe(
      false,
    );
    expect((await team.as.User.put(subUrl(trialId), { digest: false })).statusCode).toBe(200);
    const audit = (
      await auditRows(t.ctx.db, 'study_health.subscription.updated', [
        'entity_id',
        'user_id',
        'before',
        'after',
      ])
    ).filter((r) => r.entity_id === String(trialId));
    expect(audit).toEqual([
      {
        entity_id: String(trialId),
        user_id: team.userIds.User,
        before: { userId: team.userIds.User, digest: false },
        after: { userId: team.userIds.User, digest: true },
      },
      {
        entity_id: String(trialId),
        user_id: team.userIds.Admin,
        before: { userId: team.userIds.Admin, digest: false },
        after: { userId: team.userIds.Admin, digest: false },
      },
      {
        entity_id: String(trialId),
        user_id: team.userIds.User,
        before: { userId: team.userIds.User, digest: true },
        after: { userId: team.userIds.User, digest: false },
      },
    ]);
  });

  it('refuses a Viewer (403), a User not on the trial and another team (404), and a bad body (400)', async () => {
    const { team, trialId, otherTrialId } = await healthTeam(t);
    const stranger = await healthTeam(t, 'Stranger');
    const viewer = await team.as.Viewer.put(subUrl(trialId), { digest: true });
    expect(viewer.statusCode).toBe(403);
    for (const [client, id] of [
      [team.as.User, otherTrialId],
      [stranger.team.as.Admin, trialId],
    ] as const) {
      const res = await client.put(subUrl(id), { digest: true });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(TRIAL_MESSAGES.notFound);
    }
    const bad = await team.as.User.put(subUrl(trialId), { digest: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ path: 'digest', message: M.digestRequired }]);
    expect(await stored(trialId)).toEqual([]);
    expect(await stored(otherTrialId)).toEqual([]);
  });
});
