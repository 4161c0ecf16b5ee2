/*
 * No log line may hold a secret that grants access: single-use link tokens
 * (password reset, consent), OAuth codes and states, passwords, session
 * cookies and CSRF tokens. The app logs at info level into a buffer while a
 * user resets a password and a participant consents; then every secret
 * issued along the way is searched for in the log.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughAuthorizePage } from '../support/consent.js';
import { FIXTURE_PASSWORD, type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { mailAfterAnswer, mailText } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('secrets never reach the log', () => {
  let t: TestApp;
  let f: TeamFixture;
  let log = '';
  const secrets: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        log += chunk;
        done();
      },
    });
    t = await createTestApp({ listen: true, logStream: sink });
    f = await teamWithRoles(t, 'Log Team', { hiddenFields: [] });
  });
  afterAll(() => t.close());

  it('through a password reset and a device consent', async () => {
    const base = t.ctx.config.publicUrl;
    // Password reset: the emailed token, used on the page and in the API.
    const admin = await t.ctx.db
      .selectFrom('users')
      .select(['username', 'email'])
      .where('id', '=', f.userIds.Admin)
      .executeTakeFirstOrThrow();
    await t.client().post('/api/auth/forgotPassword', { email: admin.email });
    const resetLink = mailText(
      await mailAfterAnswer(t.dataDir, (m) => m.includes('ResetPasswordPage')),
    ).match(/https?:\/\/\S+ResetPasswordPage\?token=[\w-]+/)![0];
    const resetToken = new URL(resetLink).searchParams.get('token')!;
    secrets.push(resetToken);
    await fetch(`${base}/ResetPasswordPage?token=${resetToken}`); // the page itself (SPA or 404: logged either way)
    await t.client().post('/api/auth/resetPasswordValidation', { token: resetToken });
    const newPassword = 'Another-pw9!';
    const reset = await t.client().post('/api/auth/resetPassword', {
      token: resetToken,
      newPassword,
      newConfirmPassword: newPassword,
    });
    expect(reset.statusCode).toBe(200);
    secrets.push(newPassword, FIXTURE_PASSWORD);

    // Sign-in: the session cookie and the CSRF token.
    const client = t.client();
    await client.login(admin.username, newPassword);
    secrets.push(
      ...client
        .cookieHeader()
        .split('; ')
        .map((c) => c.split('=').slice(1).join('='))
        .filter((v) => v.length > 10),
    );

    // Consent: the link's token, the OAuth code and state, over real HTTP to the mounted simulator.
    const trialId = (await client.post('/api/userTrials', { trialNumber: '1', trialName: 'Log' })).json()
      .trialId;
    const pid = (await client.post('/api/trialParticipants', { trialId, email: 'p@log.example' })).json()
      .participantId;
    const consent = (await client.post(`/api/participantDevices/${pid}/fitbit/consentRequest`)).json();
    secrets.push(new URL(consent.link).searchParams.get('t')!);
    await fetch(consent.link.replace(/^https?:\/\/[^/]+/, base));
    const { callback } = await throughAuthorizePage(base, 'fitbit', consent.link);
    const code = callback.searchParams.get('code')!;
    const state = callback.searchParams.get('state')!;
    secrets.push(code, state.split('.').slice(1).join('.'));
    await fetch(`${base}/fitbit-callback?code=${code}&state=${encodeURIComponent(state)}`);
    const done = await t.client().post('/api/fitbit-callback', { authCode: code, participantId: state });
    expect(done.statusCode).toBe(200);

    await new Promise((r) => setTimeout(r, 100)); // the last lines are written after the answers
    expect(log).toContain('/ResetPasswordPage?token=[REDACTED]');
    expect(log).toContain('t=[REDACTED]');
    expect(secrets.length).toBeGreaterThan(6);
    for (const secret of secrets)
      expect(log.includes(secret), `a secret is in the log: ${secret.slice(0, 6)}…`).toBe(false);
  });
});
