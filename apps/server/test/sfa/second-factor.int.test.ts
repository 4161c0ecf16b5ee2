import { ACCOUNT_LOCKED, PASSWORD_FLOW_MESSAGES, SFA_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from '../../src/features/sfa/totp.js';
import { FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { lastMail, mailAfterAnswer, mailText } from '../support/mail.js';
import { createTestApp, SIGNED_OUT, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-05-04T08:00:00Z');

describe('identity: second factor', () => {
  let t: TestApp;
  let newUser: NewTestUser;

  /** Signs up a fresh user through setup and verify; returns the secret and a client signed out. */
  const withAuthenticator = async () => {
    const u = await newUser();
    const c = t.client();
    expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAIsNotSet');
    const setup = (await c.get('/api/auth/secondFactorSetup')).json();
    const verify = await c.post('/api/auth/verifyTOTP', { sfaToken: totpAt(setup.key, clock.now()) });
    expect(verify.statusCode).toBe(200);
    return { ...u, secret: setup.key as string, c };
  };

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    ({ newUser } = await identityTeams(t));
  });
  afterAll(() => t.close());

  it('first sign-in: SFAIsNotSet → setup (QR + key) → SFAVerifyCodeNeeded → verify logs out', async () => {
    const u = await newUser();
    const c = t.client();
    expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAIsNotSet');
    const me = await c.get('/api/auth/user');
    expect(me.statusCode).toBe(403);
    expect(me.json()).toMatchObject({ message: 'SFAIsNotSet', user: { userName: u.username } });
    // A partial session reaches no full-session call.
    expect((await c.get('/api/userTrials/')).statusCode).toBe(403);
    expect((await c.get('/api/auth//isSfaAlreadyValidated')).json()).toEqual({ success: false });

    const setup = await c.get('/api/auth/secondFactorSetup');
    expect(setup.statusCode).toBe(200);
    const { qrImage, key } = setup.json();
    expect(qrImage).toMatch(/^data:image\/png;base64,/);
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    const stored = await t.ctx.db
      .selectFrom('users')
      .select('sfa_secret_enc')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(stored.sfa_secret_enc).toMatch(/^v2\./);
    expect(stored.sfa_secret_enc).not.toContain(key);
    expect((await c.get('/api/auth/user')).json().message).toBe('SFAVerifyCodeNeeded');

    const wrong = await c.post('/api/auth/verifyTOTP', {
      sfaToken: '000000' === totpAt(key, clock.now()) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(SFA_MESSAGES.invalidCode);
    const ok = await c.post('/api/auth/verifyTOTP', { sfaToken: totpAt(key, clock.now()) });
    expect(ok.statusCode).toBe(200);
    expect((await c.get('/api/auth/user')).json()).toEqual(SIGNED_OUT); // logged out after verification
  });

  it('later sign-ins validate; a code is accepted once only; remembered device skips for 48 h', async () => {
    const u = await withAuthenticator();
    const c = t.client();
    expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAValidateCodeNeeded');
    // The code used at verification is spent (same time step): replay refused.
    const replay = await c.post('/api/auth/validateTOTP', {
      sfaToken: totpAt(u.secret, clock.now()),
      skipSFA: false,
    });
    expect(replay.statusCode).toBe(400);
    clock.advance(30_000);
    const code = totpAt(u.secret, clock.now());
    const ok = await c.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Authorized', user: { userName: u.username, role: 'User' } });
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);
    expect((await c.get('/api/auth//isSfaAlreadyValidated')).json()).toEqual({ success: true });

    // Same code from another browser: refused (no replay).
    const other = t.client();
    await other.login(u.username, FIXTURE_PASSWORD);
    expect((await other.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: false })).statusCode).toBe(
      400,
    );

    // The remembered device signs in without the second factor...
    await c.post('/api/auth/logout');
    expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('Authorized');
    // ...for 48 hours only, and only for this user.
    clock.advance(49 * 60 * 60 * 1000);
    await c.post('/api/auth/logout');
    expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAValidateCodeNeeded');
  });

  it('the device cookie is bound to its user', async () => {
    const a = await withAuthenticator();
    const b = await withAuthenticator();
    const c = t.client();
    await c.login(a.username, FIXTURE_PASSWORD);
    clock.advance(30_000);
    await c.post('/api/auth/validateTOTP', { sfaToken: totpAt(a.secret, clock.now()), skipSFA: true });
    await c.post('/api/auth/logout');
    expect((await c.login(b.username, FIXTURE_PASSWORD)).message).toBe('SFAValidateCodeNeeded');
  });

  it('email code: sent, works once, expires after 10 minutes', async () => {
    const u = await withAuthenticator();
    const c = t.client();
    await c.login(u.username, FIXTURE_PASSWORD);
    const sent = await c.post('/api/auth/generateSendEmailTOTP');
    expect(sent.json()).toEqual({ success: true, message: SFA_MESSAGES.codeSent });
    expect((await c.get('/api/auth/user')).json().message).toBe('SFAValidateEmailCodeNeeded');
    const code = mailText(
      lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`) && m.includes('sign-in code')),
    ).match(/code is: (\d{6})/)![1]!;
    const ok = await c.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: false });
    expect(ok.statusCode).toBe(200);
    const again = t.client();
    await again.login(u.username, FIXTURE_PASSWORD);
    expect((await again.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: false })).statusCode).toBe(
      400,
    );
    await again.post('/api/auth/generateSendEmailTOTP');
    const code2 = mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`))).match(
      /code is: (\d{6})/,
    )![1]!;
    clock.advance(11 * 60 * 1000);
    expect((await again.post('/api/auth/validateTOTP', { sfaToken: code2, skipSFA: false })).statusCode).toBe(
      400,
    );
  });

  it('code format messages are exact', async () => {
    const c = t.client();
    const u = await newUser();
    await c.login(u.username, FIXTURE_PASSWORD);
    const cases: Array<[string, string]> = [
      ['', SFA_MESSAGES.required],
      ['12ab56', SFA_MESSAGES.digits],
      ['12345', SFA_MESSAGES.length],
      ['1234567', SFA_MESSAGES.length],
    ];
    for (const [code, message] of cases) {
      const res = await c.post('/api/auth/verifyTOTP', { sfaToken: code });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].message).toBe(message);
    }
  });

  it('resetSFA: allowed during setup and when signed in, refused while a validation is pending', async () => {
    const u = await withAuthenticator();
    const c = t.client();
    await c.login(u.username, FIXTURE_PASSWORD);
    expect((await c.post('/api/auth/resetSFA', { currentPassword: FIXTURE_PASSWORD })).statusCode).toBe(403);
    clock.advance(30_000);
    await c.post('/api/auth/validateTOTP', { sfaToken: totpAt(u.secret, clock.now()), skipSFA: false });
    const reset = await c.post('/api/auth/resetSFA', { currentPassword: FIXTURE_PASSWORD });
    expect(reset.json()).toEqual({ message: 'SFAIsNotSet' });
    await c.post('/api/auth/logout');
    expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAIsNotSet');
  });

  it('five wrong codes lock the account and end the session', async () => {
    const u = await withAuthenticator();
    const c = t.client();
    await c.login(u.username, FIXTURE_PASSWORD);
    const bad = totpAt(u.secret, clock.now()) === '123456' ? '654321' : '123456';
    for (let i = 0; i < 4; i++)
      expect((await c.post('/api/auth/validateTOTP', { sfaToken: bad })).statusCode).toBe(400);
    const res = await c.post('/api/auth/validateTOTP', { sfaToken: bad });
    expect(res.statusCode).toBe(423);
    expect(res.json().reason).toBe(ACCOUNT_LOCKED);
    expect((await c.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
  });
  /** A user with an authenticator, signed in fully (a fresh time step after the verification). */
  const signedInWithAuthenticator = async () => {
    const u = await withAuthenticator();
    const c = t.client();
    await c.login(u.username, FIXTURE_PASSWORD);
    clock.advance(30_000);
    const ok = await c.post('/api/auth/validateTOTP', { sfaToken: totpAt(u.secret, clock.now()) });
    expect(ok.statusCode).toBe(200);
    return { ...u, c };
  };

  it('resetSFA needs the current password; the owner is emailed that the authenticator was reset', async () => {
    const u = await signedInWithAuthenticator();
    const missing = await u.c.post('/api/auth/resetSFA');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toContainEqual({
      path: 'currentPassword',
      message: PASSWORD_FLOW_MESSAGES.currentRequired,
    });
    const wrong = await u.c.post('/api/auth/resetSFA', { currentPassword: 'Not-mine-1!' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      message: PASSWORD_FLOW_MESSAGES.wrongCurrent,
      displayToUser: true,
      errors: [{ path: 'currentPassword', message: PASSWORD_FLOW_MESSAGES.wrongCurrent }],
    });
    // Nothing was removed by the refused calls.
    expect((await u.c.get('/api/auth/user')).statusCode).toBe(200);

    const reset = await u.c.post('/api/auth/resetSFA', { currentPassword: FIXTURE_PASSWORD });
    expect(reset.json()).toEqual({ message: 'SFAIsNotSet' });
    const mail = mailText(
      await mailAfterAnswer(
        t.dataDir,
        (m) => m.includes(`To: ${u.email}`) && m.includes('authenticator was reset'),
      ),
    );
    expect(mail).toContain(
      `The authenticator (second factor) of your TrialWear account (${u.username}) was removed`,
    );
  });

  it('wrong passwords on resetSFA count toward the lock: the fifth locks and ends every session', async () => {
    const u = await signedInWithAuthenticator();
    const other = t.client();
    await other.login(u.username, FIXTURE_PASSWORD); // a second, partial session of the same user
    for (let i = 0; i < 4; i++)
      expect((await u.c.post('/api/auth/resetSFA', { currentPassword: `Guess-${i}a!` })).statusCode).toBe(
        400,
      );
    const locked = await u.c.post('/api/auth/resetSFA', { currentPassword: 'Guess-4a!' });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toMatchObject({ message: SFA_MESSAGES.locked, reason: ACCOUNT_LOCKED });
    expect((await u.c.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
    expect((await other.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
    // The authenticator is still there, and the owner got the lock mail with a reset link.
    const row = await t.ctx.db
      .selectFrom('users')
      .select('sfa_enabled')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row.sfa_enabled).toBe(true);
    expect(
      mailText(
        await mailAfterAnswer(t.dataDir, (m) => m.includes(`To: ${u.email}`) && m.includes('was locked')),
      ),
    ).toMatch(/ResetPasswordPage\?token=/);
  });
});
