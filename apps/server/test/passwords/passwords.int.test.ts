import { ACCOUNT_LOCKED, PASSWORD_FLOW_MESSAGES, PASSWORD_MESSAGES, SFA_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { allMail, mailAfterAnswer, mailText } from '../support/mail.js';
import { createTestApp, SIGNED_OUT, type TestApp } from '../support/test-app.js';
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
        await mailAfterAnswer(
          t.dataDir,
          (m) => m.includes(`To: ${u.email}`) && m.includes('ResetPasswordPage'),
        ),
      );
      expect(link).toMatch(/http:\/\/127\.0\.0\.1:3000\/ResetPasswordPage\?token=[\w-]{43}/);
    });

    it('reset: validation, single use, every session ended, then the new password works', async () => {
      const u = await newUser({ sfa: false });
      const s1 = t.client();
      await s1.login(u.username, FIXTURE_PASSWORD);
      await t.client().post('/api/auth/forgotPassword', { email: u.email });
      const token = mailText(await mailAfterAnswer(t.dataDir, (m) => m.includes(`To: ${u.email}`))).match(
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
      expect((await s1.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
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
      const token = mailText(await mailAfterAnswer(t.dataDir, (m) => m.includes(`To: ${u.email}`))).match(
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
      expect((await c.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
      expect((await other.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
      expect((await t.client().login(u.username, 'Next-pw12!')).message).toBe('Authorized');
    });
    it('wrong current passwords count toward the lock: the fifth locks, ends every session and mails the owner', async () => {
      const u = await newUser({ sfa: false });
      const c = t.client();
      const other = t.client();
      await c.login(u.username, FIXTURE_PASSWORD);
      await other.login(u.username, FIXTURE_PASSWORD);
      const change = (currentPassword: string) =>
        c.post('/api/auth/changePwdReq', {
          currentPassword,
          newPassword: 'Next-pw12!',
          newConfirmPassword: 'Next-pw12!',
        });
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push((await change(`Guess-${i}a!`)).statusCode);
      // Four refusals, the lock, then no session any more (today: 30 refusals and no lock).
      expect(answers.slice(0, 5)).toEqual([400, 400, 400, 400, 423]);
      expect(new Set(answers.slice(5))).toEqual(new Set([401]));
      expect((await other.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
      const locked = await t
        .client()
        .post('/api/auth/login', { username: u.username, password: FIXTURE_PASSWORD });
      expect(locked.statusCode).toBe(423);
      expect(locked.json()).toMatchObject({ message: SFA_MESSAGES.locked, reason: ACCOUNT_LOCKED });
      expect(
        mailText(
          await mailAfterAnswer(t.dataDir, (m) => m.includes(`To: ${u.email}`) && m.includes('was locked')),
        ),
      ).toMatch(/ResetPasswordPage\?token=/);
      // The password did not change.
      clock.advance(16 * 60 * 1000);
      expect((await t.client().login(u.username, FIXTURE_PASSWORD)).message).toBe('Authorized');
    });

    it('forgot-password: the same answer, in about the same time, for known and unknown emails', async () => {
      const known: string[] = [];
      for (let i = 0; i < 20; i++) known.push((await newUser({ sfa: false })).email);
      const ask = async (email: string) => {
        await settleAfterResponse(); // the previous request's mail is not this one's time
        const start = performance.now();
        const res = await t.client().post('/api/auth/forgotPassword', { email });
        const ms = performance.now() - start;
        return { ms, status: res.statusCode, body: res.json() };
      };
      await ask('warm-up@nowhere.example');
      const k = [];
      const n = [];
      for (let i = 0; i < 20; i++) {
        k.push(await ask(known[i]!));
        n.push(await ask(`nobody${i}@nowhere.example`));
      }
      for (const a of [...k, ...n])
        expect({ status: a.status, body: a.body }).toEqual({
          status: 200,
          body: { success: true, message: PASSWORD_FLOW_MESSAGES.resetRequested },
        });
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const [mk, mn] = [median(k.map((a) => a.ms)), median(n.map((a) => a.ms))];
      // Today the known branch writes the token, the audit row and the mail before answering (11.4 vs 4.1 ms).
      expect(mk, `known ${mk.toFixed(1)} ms, unknown ${mn.toFixed(1)} ms`).toBeLessThan(mn * 1.5 + 2);
      // The links still go out, after the answers.
      expect(
        await allMail(
          t.dataDir,
          (m) => m.includes('ResetPasswordPage') && known.some((e) => m.includes(`To: ${e}`)),
        ),
      ).toHaveLength(20);
    });
  });
});
