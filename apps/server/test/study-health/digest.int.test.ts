/*
 * Study health's e-mail (issue #23 item 5, decision 033): the daily digest
 * arrives once per trial-local day per subscribed staff member with exactly
 * the open alerts of that trial (new ones marked), nothing of other trials or
 * teams, and nothing for a Viewer, a User not on the trial or an
 * unsubscribed Admin; re-runs and concurrent runs send nothing twice; before
 * the trial-local digest time nothing is sent, after it once, in each
 * trial's own zone; no e-mail when nothing is open. An opened linkError
 * alert sends its immediate e-mail once. Mail goes to the test app's outbox
 * (the mail path without SMTP).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { queueDueDigests, sendDueDigests } from '../../src/jobs/study-health/digest.js';
import { evaluateTrialAlerts } from '../../src/jobs/study-health/evaluate-alerts.js';
import { deliverHealthMail } from '../../src/jobs/study-health/mail.js';
import { createTestUser } from '../support/fixtures.js';
import { allMail, mailText } from '../support/mail.js';
import {
  addParticipant,
  type HealthTeam,
  healthTeam,
  insertAlert,
  insertLink,
} from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-11-26T07:59:00Z');
const HOUR = 3_600_000;

describe('study health: the daily digest and the link-error e-mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t?.close());

  const emailOf = async (userId: number) =>
    (await t.ctx.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow())
      .email;
  /** Every mail so far to this user, decoded. */
  const mailTo = async (userId: number) => {
    const to = `To: ${await emailOf(userId)}`;
    return (await allMail(t.dataDir, (raw) => raw.split(/\r?\n/).includes(to))).map(mailText);
  };
  const digestsTo = async (userId: number) =>
    (await mailTo(userId)).filter((m) => m.includes('TrialWear study health:'));
  const linkMailsTo = async (userId: number) => (await mailTo(userId)).filter((m) => m.includes('is broken'));
  const subscribe = async (h: HealthTeam, role: 'Admin' | 'User' | 'Sys_Admin', trialId = h.trialId) => {
    const res = await h.team.as[role].put(`/api/studyHealth/trials/${trialId}/subscription`, {
      digest: true,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** A subscription the API would refuse (a Viewer, a trial the user does not see), written as if it had been. */
  const forceSubscription = (trialId: number, userId: number) =>
    t.ctx.db
      .insertInto('health_digest_subscriptions')
      .values({ trial_id: trialId, user_id: userId, digest: true })
      .execute();
  const setZone = async (h: HealthTeam, timezone: string, localTime = '08:00') => {
    const rules = (await h.team.as.Admin.get(`/api/studyHealth/trials/${h.trialId}/rules`)).json();
    const { isDefault: _d, updatedAt: _u, ...body } = rules;
    const res = await h.team.as.Admin.put(`/api/studyHealth/trials/${h.trialId}/rules`, {
      ...body,
      timezone,
      digest: { enabled: true, localTime },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const alert = (
    h: HealthTeam,
    participantId: number,
    ruleKey: 'lowWear' | 'noSync' | 'lowBattery',
    trialId = h.trialId,
  ) =>
    insertAlert(t, {
      teamId: h.team.teamId,
      trialId,
      participantId,
      ruleKey,
      openedAt: '2026-11-25T10:00:00Z',
      detail: ruleKey === 'lowWear' ? { minHours: 10, days: [{}, {}] } : { hours: 48, percent: 15 },
    });
  let seq = 0;
  /** A participant with a code of its own (no code is a prefix of another). */
  const participant = async (h: HealthTeam, trialId = h.trialId) => {
    const p = await addParticipant(t, h.team, trialId, `digest${++seq}@x.example`);
    const suffix = String(1000 + seq);
    const code = `DG-${suffix}`;
    await t.ctx.db
      .updateTable('participants')
      .set({ participant_code: code, participant_code_suffix: suffix })
      .where('id', '=', p.id)
      .execute();
    return { id: p.id, code };
  };
  /** The digest's lines naming a participant (`- CODE: …`). */
  const listed = (mail: string) =>
    mail
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2, l.indexOf(':')));
  const section = (mail: string, title: 'New:' | 'Still open:') => {
    const lines = mail.split('\n');
    const from = lines.indexOf(title);
    if (from < 0) return [];
    const out: string[] = [];
    for (const l of lines.slice(from + 1)) {
      if (!l.startsWith('- ') && !l.startsWith('  ')) break;
      if (l.startsWith('- ')) out.push(l.slice(2, l.indexOf(':')));
    }
    return out;
  };

  it('at 08:00 trial-local, once per subscribed staff member, exactly the open alerts of their trial', async () => {
    clock.set('2026-11-26T07:59:00Z');
    const h = await healthTeam(t, 'Digest');
    const other = await healthTeam(t, 'Digest other');
    const secondAdmin = await createTestUser(t, { teamId: h.team.teamId, role: 'Admin', sfa: false });
    const p1 = await participant(h);
    const p2 = await participant(h);
    // p4's alert opens after the first digest.
    const p4 = await participant(h);
    const p3 = await participant(h, h.otherTrialId);
    const q1 = await participant(other);
    const a1 = await alert(h, p1.id, 'lowWear');
    const a2 = await alert(h, p2.id, 'noSync');
    // Closed: not in the digest.
    await insertAlert(t, {
      teamId: h.team.teamId,
      trialId: h.trialId,
      participantId: p2.id,
      ruleKey: 'lowBattery',
      openedAt: '2026-11-24T10:00:00Z',
      closedAt: '2026-11-25T10:00:00Z',
    });
    await alert(h, p3.id, 'lowWear', h.otherTrialId);
    await alert(other, q1.id, 'lowWear');
    await subscribe(h, 'Admin');
    await subscribe(h, 'User');
    await subscribe(h, 'Admin', h.otherTrialId);
    await subscribe(other, 'Admin');
    // Refused by the API, present anyway: a Viewer of the trial, a User on another trial of the team.
    await forceSubscription(h.trialId, h.team.userIds.Viewer);
    await forceSubscription(h.otherTrialId, h.team.userIds.User);

    // 07:59 UTC = 07:59 in the trials' zone (UTC: no participant has a zone): not yet.
    const before = await sendDueDigests(t.ctx);
    expect(before.digests).toBe(0);
    expect(await digestsTo(h.team.userIds.Admin)).toEqual([]);

    clock.set('2026-11-26T08:00:00Z');
    const at = await sendDueDigests(t.ctx);
    expect(at.digests).toBeGreaterThanOrEqual(4);

    const [adminMail, ...adminMore] = (await digestsTo(h.team.userIds.Admin)).filter((m) =>
      m.includes(`trial "Health 1"`),
    );
    expect(adminMore).toEqual([]);
    const userMails = await digestsTo(h.team.userIds.User);
    expect(userMails).toHaveLength(1);
    for (const mail of [adminMail!, userMails[0]!]) {
      expect(mail).toContain('Subject: TrialWear study health: 2 open alerts in Health 1 (2026-11-26)');
      expect(listed(mail).sort()).toEqual([p1.code, p2.code].sort());
      expect(section(mail, 'New:').sort()).toEqual([p1.code, p2.code].sort());
      expect(mail).toContain(
        `${p1.code}: wear below 10 hours a day on 2 consecutive days, since 2026-11-25 10:00`,
      );
      expect(mail).toContain(`${p2.code}: no sync for more than 48 hours, since 2026-11-25 10:00`);
      expect(mail).toContain(
        `${t.ctx.config.publicUrl}/ParticipantOverview?trialId=${h.trialId}&participantId=${p1.id}`,
      );
      expect(mail).toContain(`${t.ctx.config.publicUrl}/StudyHealth?trialId=${h.trialId}`);
      expect(mail).not.toContain(p3.code);
      expect(mail).not.toContain(q1.code);
    }
    // The Admin also subscribed to the other trial: its own digest, with its own alert only.
    const adminOther = (await digestsTo(h.team.userIds.Admin)).filter((m) => m.includes(`trial "Health 2"`));
    expect(adminOther).toHaveLength(1);
    expect(listed(adminOther[0]!)).toEqual([p3.code]);
    // The other team's Admin: their trial only.
    const otherMails = await digestsTo(other.team.userIds.Admin);
    expect(otherMails.map(listed)).toEqual([[q1.code]]);
    // Nobody else: the Viewer, the User of the other trial (only the first trial's digest), the unsubscribed Admins.
    expect(await digestsTo(h.team.userIds.Viewer)).toEqual([]);
    expect(userMails.every((m) => m.includes(`trial "Health 1"`))).toBe(true);
    expect(await digestsTo(secondAdmin.id)).toEqual([]);
    expect(await digestsTo(h.team.userIds.Sys_Admin)).toEqual([]);
    // What was sent is recorded once per recipient.
    const rows = await t.ctx.db
      .selectFrom('health_digests_sent')
      .select(['user_id', 'alert_ids', 'new_alert_ids'])
      .where('trial_id', '=', h.trialId)
      .orderBy('user_id')
      .execute();
    expect(rows).toEqual(
      [h.team.userIds.Admin, h.team.userIds.User]
        .sort((x, y) => x - y)
        .map((user_id) => ({ user_id, alert_ids: [a1, a2], new_alert_ids: [a1, a2] })),
    );

    // A re-run later that day, and three runs at once: nothing more.
    clock.set('2026-11-26T15:00:00Z');
    expect((await sendDueDigests(t.ctx)).digests).toBe(0);
    await Promise.all([sendDueDigests(t.ctx), sendDueDigests(t.ctx), sendDueDigests(t.ctx)]);
    expect(await digestsTo(h.team.userIds.User)).toHaveLength(1);
    expect(await digestsTo(h.team.userIds.Admin)).toHaveLength(2);

    // The next day: one more, the alerts still open are no longer new; a new one is.
    await alert(h, p4.id, 'lowWear');
    clock.set('2026-11-27T08:10:00Z');
    await sendDueDigests(t.ctx);
    const next = await digestsTo(h.team.userIds.User);
    expect(next).toHaveLength(2);
    const day2 = next.find((m) => m.includes('(2026-11-27)'))!;
    expect(section(day2, 'New:')).toEqual([p4.code]);
    expect(section(day2, 'Still open:').sort()).toEqual([p1.code, p2.code].sort());
  });

  it('two runs at once on a fresh day: each recipient gets exactly one digest', async () => {
    clock.set('2026-11-26T09:00:00Z');
    const h = await healthTeam(t, 'Digest race');
    const p = await participant(h);
    await alert(h, p.id, 'noSync');
    await subscribe(h, 'Admin');
    await subscribe(h, 'User');
    const runs = await Promise.all([sendDueDigests(t.ctx), sendDueDigests(t.ctx)]);
    expect(runs.reduce((n, r) => n + r.mailed, 0)).toBeGreaterThanOrEqual(2);
    expect(await digestsTo(h.team.userIds.Admin)).toHaveLength(1);
    expect(await digestsTo(h.team.userIds.User)).toHaveLength(1);
  });

  it('a trial in another zone gets its digest at its own 08:00 (and its own local date)', async () => {
    // 08:00 in New York on 26 November 2026 (EST, UTC-5) is 13:00 UTC; in Tokyo (UTC+9) 23:00 UTC on the 25th.
    const ny = await healthTeam(t, 'Digest NY');
    const tokyo = await healthTeam(t, 'Digest Tokyo');
    await setZone(ny, 'America/New_York');
    await setZone(tokyo, 'Asia/Tokyo');
    for (const h of [ny, tokyo]) {
      const p = await participant(h);
      await alert(h, p.id, 'lowWear');
    }
    await subscribe(tokyo, 'Admin');
    clock.set('2026-11-25T22:59:00Z');
    await sendDueDigests(t.ctx);
    expect(await digestsTo(tokyo.team.userIds.Admin)).toEqual([]);
    clock.set('2026-11-25T23:00:00Z');
    await sendDueDigests(t.ctx);
    const tokyoMail = await digestsTo(tokyo.team.userIds.Admin);
    expect(tokyoMail).toHaveLength(1);
    expect(tokyoMail[0]).toContain('(2026-11-26)');
    expect(tokyoMail[0]).toContain('(Asia/Tokyo)');
    // 07:59 in New York on the 26th: nothing for New York yet.
    await subscribe(ny, 'Admin');
    clock.set('2026-11-26T12:59:00Z');
    await sendDueDigests(t.ctx);
    expect(await digestsTo(ny.team.userIds.Admin)).toEqual([]);
    clock.set('2026-11-26T13:00:00Z');
    await sendDueDigests(t.ctx);
    const nyMail = await digestsTo(ny.team.userIds.Admin);
    expect(nyMail).toHaveLength(1);
    expect(nyMail[0]).toContain('(2026-11-26)');
    expect(nyMail[0]).toContain('since 2026-11-25 05:00');
    // Tokyo's next digest waits for its next 08:00.
    clock.advance(9 * HOUR);
    await sendDueDigests(t.ctx);
    expect(await digestsTo(tokyo.team.userIds.Admin)).toHaveLength(1);
    clock.set('2026-11-26T23:00:00Z');
    await sendDueDigests(t.ctx);
    expect(await digestsTo(tokyo.team.userIds.Admin)).toHaveLength(2);
  });

  it('a User taken off the trial between the claim and the send gets nothing', async () => {
    clock.set('2026-11-26T10:00:00Z');
    const h = await healthTeam(t, 'Digest removed');
    const p = await participant(h);
    await alert(h, p.id, 'lowWear');
    await subscribe(h, 'Admin');
    await subscribe(h, 'User');
    expect(await queueDueDigests(t.ctx, 'job', h.trialId)).toEqual({ digestTrials: 1, digests: 2 });
    await t.ctx.db
      .deleteFrom('trial_users')
      .where('trial_id', '=', h.trialId)
      .where('user_id', '=', h.team.userIds.User)
      .execute();
    expect(await deliverHealthMail(t.ctx, h.trialId)).toEqual({ mailed: 1, failed: 0, givenUp: 0 });
    expect(await digestsTo(h.team.userIds.Admin)).toHaveLength(1);
    expect(await digestsTo(h.team.userIds.User)).toEqual([]);
  });

  it('no e-mail when nothing is open; a disabled digest sends nothing', async () => {
    clock.set('2026-11-26T08:30:00Z');
    const h = await healthTeam(t, 'Digest quiet');
    const p = await participant(h);
    await insertAlert(t, {
      teamId: h.team.teamId,
      trialId: h.trialId,
      participantId: p.id,
      ruleKey: 'lowWear',
      openedAt: '2026-11-24T10:00:00Z',
      closedAt: '2026-11-25T10:00:00Z',
    });
    await subscribe(h, 'Admin');
    await sendDueDigests(t.ctx);
    expect(await digestsTo(h.team.userIds.Admin)).toEqual([]);

    const off = await healthTeam(t, 'Digest off');
    const rules = (await off.team.as.Admin.get(`/api/studyHealth/trials/${off.trialId}/rules`)).json();
    const { isDefault: _d, updatedAt: _u, ...body } = rules;
    await off.team.as.Admin.put(`/api/studyHealth/trials/${off.trialId}/rules`, {
      ...body,
      digest: { enabled: false, localTime: '08:00' },
    });
    const q = await participant(off);
    await alert(off, q.id, 'lowWear');
    await subscribe(off, 'Admin');
    await sendDueDigests(t.ctx);
    expect(await digestsTo(off.team.userIds.Admin)).toEqual([]);
  });

  it('a link that breaks: one immediate e-mail per opened alert to the subscribed staff, naming the participant and the device', async () => {
    clock.set('2026-11-26T15:00:00Z');
    const h = await healthTeam(t, 'Link mail');
    await subscribe(h, 'Admin');
    await subscribe(h, 'User');
    await forceSubscription(h.trialId, h.team.userIds.Viewer);
    // Subscribed, then not.
    await subscribe(h, 'Sys_Admin');
    await h.team.as.Sys_Admin.put(`/api/studyHealth/trials/${h.trialId}/subscription`, { digest: false });
    const p = await participant(h);
    await insertLink(t, h.team.teamId, p.id, { status: 'error' });
    const scope = systemScope.trial('fixture', h.team.teamId, h.trialId);

    expect(await evaluateTrialAlerts(t.ctx, scope)).toEqual({ opened: 1, closed: 0 });
    for (const role of ['Admin', 'User'] as const) {
      const mails = await linkMailsTo(h.team.userIds[role]);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain(`Subject: TrialWear: a device link of ${p.code} in Health 1 is broken`);
      expect(mails[0]).toContain(`participant ${p.code} in trial "Health 1"`);
      expect(mails[0]).toContain('Fitbit (link errored)');
      expect(mails[0]).toContain(`/ParticipantOverview?trialId=${h.trialId}&participantId=${p.id}`);
    }
    expect(await linkMailsTo(h.team.userIds.Viewer)).toEqual([]);
    expect(await linkMailsTo(h.team.userIds.Sys_Admin)).toEqual([]);

    // Re-runs and runs at once: the alert is open already, nothing is sent again; the digest job's
    // sweep finds nothing left to send either.
    await evaluateTrialAlerts(t.ctx, scope);
    await Promise.all([evaluateTrialAlerts(t.ctx, scope), evaluateTrialAlerts(t.ctx, scope)]);
    await sendDueDigests(t.ctx, 'job', h.trialId);
    expect(await linkMailsTo(h.team.userIds.Admin)).toHaveLength(1);

    // Another participant's link is revoked, two evaluations at once: one e-mail for that alert.
    const p2 = await participant(h);
    await insertLink(t, h.team.teamId, p2.id, { status: 'revoked' });
    const runs = await Promise.all([evaluateTrialAlerts(t.ctx, scope), evaluateTrialAlerts(t.ctx, scope)]);
    expect(runs.reduce((n, r) => n + r.opened, 0)).toBe(1);
    const userMails = await linkMailsTo(h.team.userIds.User);
    expect(userMails).toHaveLength(2);
    expect(
      userMails.filter((m) => m.includes(`participant ${p2.code} `) && m.includes('Fitbit (link revoked)')),
    ).toHaveLength(1);
  });
});
