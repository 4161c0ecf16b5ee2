import { PASSWORD_FLOW_MESSAGES, PASSWORD_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { lastMail, mailText } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-05-04T08:00:00Z');

describe('identity: passwords', () => {
  let t: TestApp;
  let newUser: NewTestUser;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    ({ newUser } = await identityTeams(t));
  });
  afterAll(() => t.close());

  describe('passwords', () => {
    it('forgot-password answers the same for unknown emails and mails a link for known ones', async () => {
      const u = await newUser({ sfa: false });
      const unknown = await t.client().post('/api/auth/forgotPassword', { email: 'nobody@nowhere.example' });
      const known = await t.client().post('/api/auth/forgotPassword', { email: u.email.toUpperCase() });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      expect(known.json().message).toBe(PASSWORD_FLOW_MESSAGES.resetRequested);
      const link = mailText(
        lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`) && m.includes('ResetPasswordPage')),
      );
      expect(link).toMatch(/http:\/\/127\.0\.0\.1:3000\/ResetPasswordPage\?token=[\w-]{43}/);
    });

    it('reset: validation, single use, every session ended, then the new password works', async () => {
      const u = await newUser({ sfa: false });
      const s1 = t.client();
      await s1.login(u.username, FIXTURE_PASSWORD);
      await t.client().post('/api/auth/forgotPassword', { email: u.email });
      const token = mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`))).match(
        /token=([\w-]+)/,
      )![1]!;
      expect((await t.client().post('/api/auth/resetPasswordValidation', { token })).json()).toEqual({
        userId: u.id,
      });
      const bad = await t
        .client()
        .post('/api/auth/resetPassword', { token, newPassword: 'short', newConfirmPassword: 'short' });
      expect(bad.json().errors[0].message).toBe(PASSWORD_MESSAGES.tooShort);
      const mismatch = await t.client().post('/api/auth/resetPassword', {
        token,
        newPassword: 'New-pass12!',
        newConfirmPassword: 'New-pass12?',
      });
      expect(mismatch.json().errors).toContainEqual({
        path: 'newConfirmPassword',
        message: PASSWORD_FLOW_MESSAGES.resetMismatch,
      });
      const ok = await t.client().post('/api/auth/resetPassword', {
        token,
        newPassword: 'New-pass12!',
        newConfirmPassword: 'New-pass12!',
      });
      expect(ok.json()).toEqual({ success: true, message: PASSWORD_FLOW_MESSAGES.newPasswordSet });
      expect((await s1.get('/api/auth/user')).statusCode).toBe(401);
      const again = await t.client().post('/api/auth/resetPassword', {
        token,
        newPassword: 'Other-pw12!',
        newConfirmPassword: 'Other-pw12!',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(PASSWORD_FLOW_MESSAGES.resetLinkInvalid);
      expect(
        (await t.client().post('/api/auth/login', { username: u.username, password: FIXTURE_PASSWORD }))
          .statusCode,
      ).toBe(401);
      expect((await t.client().login(u.username, 'New-pass12!')).message).toBe('Authorized');
    });

    it('a reset link expires after an hour', async () => {
      const u = await newUser({ sfa: false });
      await t.client().post('/api/auth/forgotPassword', { email: u.email });
      const token = mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`))).match(
        /token=([\w-]+)/,
      )![1]!;
      clock.advance(61 * 60 * 1000);
      expect((await t.client().post('/api/auth/resetPasswordValidation', { token })).statusCode).toBe(400);
    });

    it('change password: current one required; success ends every session', async () => {
      const u = await newUser({ sfa: false });
      const c = t.client();
      const other = t.client();
      await c.login(u.username, FIXTURE_PASSWORD);
      await other.login(u.username, FIXTURE_PASSWORD);
      const wrong = await c.post('/api/auth/changePwdReq', {
        currentPassword: 'Nope-pw12!',
        newPassword: 'Next-pw12!',
        newConfirmPassword: 'Next-pw12!',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe(PASSWORD_FLOW_MESSAGES.wrongCurrent);
      const mismatch = await c.post('/api/auth/changePwdReq', {
        currentPassword: FIXTURE_PASSWORD,
        newPassword: 'Next-pw12!',
        newConfirmPassword: 'Next-pw13!',
      });
      expect(mismatch.json().errors).toContainEqual({
        path: 'newConfirmPassword',
        message: PASSWORD_FLOW_MESSAGES.changeMismatch,
      });
      const ok = await c.post('/api/auth/changePwdReq', {
        currentPassword: FIXTURE_PASSWORD,
        newPassword: 'Next-pw12!',
        newConfirmPassword: 'Next-pw12!',
      });
      expect(ok.statusCode).toBe(200);
      expect((await c.get('/api/auth/user')).statusCode).toBe(401);
      expect((await other.get('/api/auth/user')).statusCode).toBe(401);
      expect((await t.client().login(u.username, 'Next-pw12!')).message).toBe('Authorized');
    });
  });
});
