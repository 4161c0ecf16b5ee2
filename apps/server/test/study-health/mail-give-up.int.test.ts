/*
 * A study-health mail that keeps failing (here: an SMTP address whose server
 * refuses every session) is not tried for ever, nor dropped without a trace: each
 * failed try is counted on its row with its error, the MAIL_ATTEMPTS-th gives
 * it up (marked, with an audit row of the trial's team), and later runs leave
 * it alone. The digest and the link-error mail alike.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueDueDigests } from '../../src/jobs/study-health/digest.js';
import { deliverHealthMail, MAIL_ATTEMPTS } from '../../src/jobs/study-health/mail.js';
import { queueAlertMails } from '../../src/jobs/study-health/repo.js';
import { addParticipant, healthTeam, insertAlert } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-11-26T09:00:00Z');

describe('study health mail that keeps failing', () => {
  let t: TestApp;
  let smtp: net.Server;
  beforeAll(async () => {
    // Holds its port (no other test can take it) and refuses every session in its greeting (RFC 5321
    // §3.1, 554 "no SMTP service here"): every send fails at once. (A server that hangs up without a
    // word fails the send too, but nodemailer waits a second before it says so: 16 s of this test.)
    smtp = net.createServer((socket) => socket.end('554 5.3.2 No SMTP service here\r\n'));
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.address() as net.AddressInfo;
    t = await createTestApp({ now: clock.now, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => smtp?.close(resolve));
  });

  it('counts each failed try, gives the mail up at the last one with an audit row, then leaves it', async () => {
    const h = await healthTeam(t, 'Give up');
    const p = await addParticipant(t, h.team, h.trialId, 'giveup@x.example');
    const opened = {
      teamId: h.team.teamId,
      trialId: h.trialId,
      participantId: p.id,
      openedAt: '2026-11-26T06:00:00Z',
    };
    await insertAlert(t, { ...opened, ruleKey: 'lowWear' });
    const linkAlert = await insertAlert(t, { ...opened, ruleKey: 'linkError' });
    const admin = h.team.userIds.Admin;
    const res = await h.team.as.Admin.put(`/api/studyHealth/trials/${h.trialId}/subscription`, {
      digest: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await queueDueDigests(t.ctx, 'job', h.trialId)).toEqual({ digestTrials: 1, digests: 1 });
    await queueAlertMails(t.ctx.db, linkAlert, [admin], clock.now());

    const rows = async () => ({
      digest: await t.ctx.db
        .selectFrom('health_digests_sent')
        .select(['attempts', 'last_error', 'given_up_at', 'mailed_at'])
        .where('trial_id', '=', h.trialId)
        .where('user_id', '=', admin)
        .executeTakeFirstOrThrow(),
      alert: await t.ctx.db
        .selectFrom('health_alert_mails')
        .select(['attempts', 'last_error', 'given_up_at', 'mailed_at'])
        .where('alert_id', '=', linkAlert)
        .where('user_id', '=', admin)
        .executeTakeFirstOrThrow(),
    });
    const givenUpAudits = () =>
      t.ctx.db
        .selectFrom('audit_log')
        .select(['team_id', 'user_id', 'entity_type', 'entity_id', 'after'])
        .where('action', '=', 'study_health.mail_given_up')
        .where('team_id', '=', h.team.teamId)
        .orderBy('entity_type')
        .execute();

    for (let run = 1; run < MAIL_ATTEMPTS; run++) {
      clock.advance(15 * 60_000);
      expect(await deliverHealthMail(t.ctx, h.trialId)).toEqual({ mailed: 0, failed: 2, givenUp: 0 });
    }
    const before = await rows();
    for (const row of [before.digest, before.alert]) {
      expect(row.attempts).toBe(MAIL_ATTEMPTS - 1);
      expect(row.last_error).toMatch(/\w/);
      expect(row.given_up_at).toBeNull();
      expect(row.mailed_at).toBeNull();
    }
    expect(await givenUpAudits()).toEqual([]);

    // The last allowed try.
    clock.advance(15 * 60_000);
    expect(await deliverHealthMail(t.ctx, h.trialId)).toEqual({ mailed: 0, failed: 2, givenUp: 2 });
    const after = await rows();
    for (const row of [after.digest, after.alert]) {
      expect(row.attempts).toBe(MAIL_ATTEMPTS);
      expect(row.given_up_at).toEqual(clock.now());
      expect(row.mailed_at).toBeNull();
    }
    const audits = await givenUpAudits();
    expect(audits.map((a) => [a.team_id, a.user_id, a.entity_type, a.entity_id])).toEqual([
      [h.team.teamId, null, 'health_alert_mail', `${linkAlert}/${admin}`],
      [h.team.teamId, null, 'health_digest', `${h.trialId}/2026-11-26/${admin}`],
    ]);
    for (const a of audits)
      expect(a.after).toMatchObject({
        recipientUserId: admin,
        attempts: MAIL_ATTEMPTS,
        lastError: after.digest.last_error,
      });

    // Given up: no further try.
    clock.advance(15 * 60_000);
    expect(await deliverHealthMail(t.ctx, h.trialId)).toEqual({ mailed: 0, failed: 0, givenUp: 0 });
    expect((await rows()).digest.attempts).toBe(MAIL_ATTEMPTS);
  });
});
