import {
  ACCOUNT_LOCKED,
  PASSWORD_FLOW_MESSAGES,
  PASSWORD_MESSAGES,
  SFA_MESSAGES,
  SIGNUP_MESSAGES,
} from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlockUser } from '../src/features/auth/lockout.js';
import { totpAt } from '../src/features/sfa/totp.js';
import { createTeam } from '../src/features/teams/service.js';
import { createUser } from '../src/features/users/service.js';
import { lastMail, mailText } from './support/mail.js';
import { createTestApp, type TestApp, type TestClient } from './support/test-app.js';

const PW = 'Identity-pw1!';
let clock = new Date('2026-05-04T08:00:00Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

describe('identity: second factor, lockout, passwords, sign-up, teams', () => {
  let t: TestApp;
  let teamA: number;
  let teamB: number;
  let n = 0;
  const newUser = async (
    opts: { sfa?: boolean; role?: 'Admin' | 'User' | 'Viewer' | 'Sys_Admin'; teamId?: number } = {},
  ) => {
    n += 1;
    const username = `ident${n}`;
    const id = await createUser(t.ctx.db, {
      username,
      email: `${username}@lab.example`,
      password: PW,
      firstName: 'Ida',
      lastName: `Number${n}`,
      teamId: opts.teamId ?? teamA,
      role: opts.role ?? 'User',
      sfaRequired: opts.sfa ?? true,
    });
    return { id, username, email: `${username}@lab.example` };
  };

  /** Signs up a fresh user through setup and verify; returns the secret and a client signed out. */
  const withAuthenticator = async () => {
    const u = await newUser();
    const c = t.client();
    expect((await c.login(u.username, PW)).message).toBe('SFAIsNotSet');
    const setup = (await c.get('/api/auth/secondFactorSetup')).json();
    const verify = await c.post('/api/auth/verifyTOTP', { sfaToken: totpAt(setup.key, clock) });
    expect(verify.statusCode).toBe(200);
    return { ...u, secret: setup.key as string, c };
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    teamA = await createTeam(t.ctx.db, { name: 'Identity A' });
    teamB = await createTeam(t.ctx.db, { name: 'Identity B' });
  });
  afterAll(() => t.close());

  it('first sign-in: SFAIsNotSet → setup (QR + key) → SFAVerifyCodeNeeded → verify logs out', async () => {
    const u = await newUser();
    const c = t.client();
    expect((await c.login(u.username, PW)).message).toBe('SFAIsNotSet');
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
    expect(stored.sfa_secret_enc).toMatch(/^v1\./);
    expect(stored.sfa_secret_enc).not.toContain(key);
    expect((await c.get('/api/auth/user')).json().message).toBe('SFAVerifyCodeNeeded');

    const wrong = await c.post('/api/auth/verifyTOTP', {
      sfaToken: '000000' === totpAt(key, clock) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(SFA_MESSAGES.invalidCode);
    const ok = await c.post('/api/auth/verifyTOTP', { sfaToken: totpAt(key, clock) });
    expect(ok.statusCode).toBe(200);
    expect((await c.get('/api/auth/user')).statusCode).toBe(401); // logged out after verification
  });

  it('later sign-ins validate; a code is accepted once only; remembered device skips for 48 h', async () => {
    const u = await withAuthenticator();
    const c = t.client();
    expect((await c.login(u.username, PW)).message).toBe('SFAValidateCodeNeeded');
    // The code used at verification is spent (same time step): replay refused.
    const replay = await c.post('/api/auth/validateTOTP', {
      sfaToken: totpAt(u.secret, clock),
      skipSFA: false,
    });
    expect(replay.statusCode).toBe(400);
    advance(30_000);
    const code = totpAt(u.secret, clock);
    const ok = await c.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Authorized', user: { userName: u.username, role: 'User' } });
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);
    expect((await c.get('/api/auth//isSfaAlreadyValidated')).json()).toEqual({ success: true });

    // Same code from another browser: refused (no replay).
    const other = t.client();
    await other.login(u.username, PW);
    expect((await other.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: false })).statusCode).toBe(
      400,
    );

    // The remembered device signs in without the second factor...
    await c.post('/api/auth/logout');
    expect((await c.login(u.username, PW)).message).toBe('Authorized');
    // ...for 48 hours only, and only for this user.
    advance(49 * 60 * 60 * 1000);
    await c.post('/api/auth/logout');
    expect((await c.login(u.username, PW)).message).toBe('SFAValidateCodeNeeded');
  });

  it('the device cookie is bound to its user', async () => {
    const a = await withAuthenticator();
    const b = await withAuthenticator();
    const c = t.client();
    await c.login(a.username, PW);
    advance(30_000);
    await c.post('/api/auth/validateTOTP', { sfaToken: totpAt(a.secret, clock), skipSFA: true });
    await c.post('/api/auth/logout');
    expect((await c.login(b.username, PW)).message).toBe('SFAValidateCodeNeeded');
  });

  it('email code: sent, works once, expires after 10 minutes', async () => {
    const u = await withAuthenticator();
    const c = t.client();
    await c.login(u.username, PW);
    const sent = await c.post('/api/auth/generateSendEmailTOTP');
    expect(sent.json()).toEqual({ success: true, message: SFA_MESSAGES.codeSent });
    expect((await c.get('/api/auth/user')).json().message).toBe('SFAValidateEmailCodeNeeded');
    const code = mailText(
      lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`) && m.includes('sign-in code')),
    ).match(/code is: (\d{6})/)![1]!;
    const ok = await c.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: false });
    expect(ok.statusCode).toBe(200);
    const again = t.client();
    await again.login(u.username, PW);
    expect((await again.post('/api/auth/validateTOTP', { sfaToken: code, skipSFA: false })).statusCode).toBe(
      400,
    );
    await again.post('/api/auth/generateSendEmailTOTP');
    const code2 = mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`))).match(
      /code is: (\d{6})/,
    )![1]!;
    advance(11 * 60 * 1000);
    expect((await again.post('/api/auth/validateTOTP', { sfaToken: code2, skipSFA: false })).statusCode).toBe(
      400,
    );
  });

  it('code format messages are exact', async () => {
    const c = t.client();
    const u = await newUser();
    await c.login(u.username, PW);
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
    await c.login(u.username, PW);
    expect((await c.post('/api/auth/resetSFA')).statusCode).toBe(403);
    advance(30_000);
    await c.post('/api/auth/validateTOTP', { sfaToken: totpAt(u.secret, clock), skipSFA: false });
    const reset = await c.post('/api/auth/resetSFA');
    expect(reset.json()).toEqual({ message: 'SFAIsNotSet' });
    await c.post('/api/auth/logout');
    expect((await c.login(u.username, PW)).message).toBe('SFAIsNotSet');
  });

  it('five wrong passwords lock the account; unlock restores it', async () => {
    const u = await newUser({ sfa: false });
    const c = t.client();
    for (let i = 0; i < 4; i++)
      expect(
        (await c.post('/api/auth/login', { username: u.username, password: 'Wrong-pw1!' })).statusCode,
      ).toBe(401);
    const locked = await c.post('/api/auth/login', { username: u.username, password: 'Wrong-pw1!' });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toMatchObject({
      message: SFA_MESSAGES.locked,
      reason: ACCOUNT_LOCKED,
      displayToUser: true,
    });
    expect((await c.post('/api/auth/login', { username: u.username, password: PW })).statusCode).toBe(423);
    await unlockUser(t.ctx, u.id);
    expect((await c.login(u.username, PW)).message).toBe('Authorized');
  });

  it('five wrong codes lock the account and end the session', async () => {
    const u = await withAuthenticator();
    const c = t.client();
    await c.login(u.username, PW);
    const bad = totpAt(u.secret, clock) === '123456' ? '654321' : '123456';
    for (let i = 0; i < 4; i++)
      expect((await c.post('/api/auth/validateTOTP', { sfaToken: bad })).statusCode).toBe(400);
    const res = await c.post('/api/auth/validateTOTP', { sfaToken: bad });
    expect(res.statusCode).toBe(423);
    expect(res.json().reason).toBe(ACCOUNT_LOCKED);
    expect((await c.get('/api/auth/user')).statusCode).toBe(401);
  });

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
      await s1.login(u.username, PW);
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
        (await t.client().post('/api/auth/login', { username: u.username, password: PW })).statusCode,
      ).toBe(401);
      expect((await t.client().login(u.username, 'New-pass12!')).message).toBe('Authorized');
    });

    it('a reset link expires after an hour', async () => {
      const u = await newUser({ sfa: false });
      await t.client().post('/api/auth/forgotPassword', { email: u.email });
      const token = mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${u.email}`))).match(
        /token=([\w-]+)/,
      )![1]!;
      advance(61 * 60 * 1000);
      expect((await t.client().post('/api/auth/resetPasswordValidation', { token })).statusCode).toBe(400);
    });

    it('change password: current one required; success ends every session', async () => {
      const u = await newUser({ sfa: false });
      const c = t.client();
      const other = t.client();
      await c.login(u.username, PW);
      await other.login(u.username, PW);
      const wrong = await c.post('/api/auth/changePwdReq', {
        currentPassword: 'Nope-pw12!',
        newPassword: 'Next-pw12!',
        newConfirmPassword: 'Next-pw12!',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe(PASSWORD_FLOW_MESSAGES.wrongCurrent);
      const mismatch = await c.post('/api/auth/changePwdReq', {
        currentPassword: PW,
        newPassword: 'Next-pw12!',
        newConfirmPassword: 'Next-pw13!',
      });
      expect(mismatch.json().errors).toContainEqual({
        path: 'newConfirmPassword',
        message: PASSWORD_FLOW_MESSAGES.changeMismatch,
      });
      const ok = await c.post('/api/auth/changePwdReq', {
        currentPassword: PW,
        newPassword: 'Next-pw12!',
        newConfirmPassword: 'Next-pw12!',
      });
      expect(ok.statusCode).toBe(200);
      expect((await c.get('/api/auth/user')).statusCode).toBe(401);
      expect((await other.get('/api/auth/user')).statusCode).toBe(401);
      expect((await t.client().login(u.username, 'Next-pw12!')).message).toBe('Authorized');
    });
  });

  describe('sign-up by approval', () => {
    let sys: TestClient;
    beforeAll(async () => {
      const s = await newUser({ sfa: false, role: 'Sys_Admin' });
      sys = t.client();
      await sys.login(s.username, PW);
    });

    it('only a Sys_Admin approves; messages exact', async () => {
      const admin = await newUser({ sfa: false, role: 'Admin' });
      const a = t.client();
      await a.login(admin.username, PW);
      expect(
        (
          await a.post('/api/userSignUpPermission/approveSignUp', {
            email: 'x@y.example',
            role: 'User',
            teamId: teamA,
          })
        ).statusCode,
      ).toBe(403);
      const bad = await sys.post('/api/userSignUpPermission/approveSignUp', {
        email: '',
        role: 'User',
        teamId: '',
      });
      expect(bad.json().errors).toEqual(
        expect.arrayContaining([
          { path: 'email', message: 'Email is required' },
          { path: 'teamId', message: SIGNUP_MESSAGES.teamRequired },
        ]),
      );
      expect(
        (
          await sys.post('/api/userSignUpPermission/approveSignUp', {
            email: 'bad',
            role: 'User',
            teamId: teamA,
          })
        ).json().errors[0].message,
      ).toBe('Email is invalid');
      expect(
        (
          await sys.post('/api/userSignUpPermission/approveSignUp', {
            email: 'x@y.example',
            role: 'Sys_Admin',
            teamId: teamA,
          })
        ).statusCode,
      ).toBe(400);
    });

    it('approval → link → validation → sign-up with the invitation email, team and role', async () => {
      const approved = await sys.post('/api/userSignUpPermission/approveSignUp', {
        email: 'newbie@lab.example',
        role: 'Viewer',
        teamId: teamB,
        teamName: 'ignored',
      });
      expect(approved.json()).toEqual({ success: true, message: SIGNUP_MESSAGES.approvalSent });
      const token = mailText(lastMail(t.dataDir, (m) => m.includes('To: newbie@lab.example'))).match(
        /SignupValidation\?token=([\w-]+)/,
      )![1]!;
      expect(
        (await t.client().post('/api/userSignUpPermission/signupRequestValidation', { token: '' })).json()
          .errors[0].message,
      ).toBe(SIGNUP_MESSAGES.keyMissing);
      expect(
        (await t.client().post('/api/userSignUpPermission/signupRequestValidation', { token })).json(),
      ).toEqual({
        email: 'newbie@lab.example',
        role: 'Viewer',
        teamId: teamB,
        teamName: 'Identity B',
      });
      const form = {
        token,
        firstName: 'New',
        lastName: 'Bie',
        username: 'newbie',
        password: 'Newbie-pw1!',
        confirmPassword: 'Newbie-pw1!',
        organization: 'Lab',
        acceptTerms: true,
        acceptPrivacy: true,
        // Claims the body must not be able to make:
        email: 'attacker@evil.example',
        role: 'Sys_Admin',
        teamId: teamA,
      };
      const invalid = await t.client().post('/api/users/signup', {
        ...form,
        firstName: '',
        lastName: '',
        acceptTerms: false,
        acceptPrivacy: false,
        confirmPassword: 'x',
      });
      expect(invalid.json().errors).toEqual(
        expect.arrayContaining([
          { path: 'firstName', message: SIGNUP_MESSAGES.firstNameRequired },
          { path: 'lastName', message: SIGNUP_MESSAGES.lastNameRequired },
          { path: 'acceptTerms', message: SIGNUP_MESSAGES.acceptTerms },
          { path: 'acceptPrivacy', message: SIGNUP_MESSAGES.acceptPrivacy },
        ]),
      );
      const ok = await t.client().post('/api/users/signup', form);
      expect(ok.json()).toEqual({
        success: true,
        message: SIGNUP_MESSAGES.success,
        data: { redirectTo: '/LoginPage' },
      });
      const user = await t.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', 'newbie')
        .executeTakeFirstOrThrow();
      expect(user.email).toBe('newbie@lab.example');
      const roles = await t.ctx.db
        .selectFrom('team_memberships')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      expect(roles).toEqual([expect.objectContaining({ team_id: teamB, role: 'Viewer' })]);
      expect((await t.client().post('/api/users/signup', { ...form, username: 'newbie2' })).statusCode).toBe(
        400,
      ); // single use
      expect((await t.client().login('newbie', 'Newbie-pw1!')).message).toBe('SFAIsNotSet');
    });

    it('participant sign-up creates a participant account, not a staff user', async () => {
      const res = await t.client().post('/api/Participants/signup', {
        username: 'pat01',
        password: 'Patient-pw1!',
        confirmPassword: 'Patient-pw1!',
        email: 'pat@x.example',
      });
      expect(res.statusCode).toBe(200);
      expect(
        await t.ctx.db.selectFrom('users').select('id').where('username', '=', 'pat01').execute(),
      ).toHaveLength(0);
      const mismatch = await t.client().post('/api/Participants/signup', {
        username: 'pat02',
        password: 'Patient-pw1!',
        confirmPassword: 'x',
        email: 'p2@x.example',
      });
      expect(mismatch.json().errors).toContainEqual({
        path: 'confirmPassword',
        message: PASSWORD_FLOW_MESSAGES.signupMismatch,
      });
    });
  });

  describe('teams', () => {
    it('switching team changes the role in force; a team the user is not in is refused', async () => {
      const u = await newUser({ sfa: false, role: 'Viewer' });
      await t.ctx.db
        .insertInto('team_memberships')
        .values({ user_id: u.id, team_id: teamB, role: 'Admin' })
        .execute();
      const c = t.client();
      const login = await c.login(u.username, PW);
      expect(login.user).toMatchObject({ team_id: teamA, role: 'Viewer' });
      const teams = (await c.get(`/api/userTeamsData/${u.id}`)).json();
      expect(teams).toEqual(
        expect.arrayContaining([
          { team_id: teamA, team_name: 'Identity A', role: 'Viewer' },
          { team_id: teamB, team_name: 'Identity B', role: 'Admin' },
        ]),
      );
      // The body's role is ignored: the membership decides.
      const switched = await c.post('/api/selectTeam', {
        teamId: teamB,
        teamName: 'Identity B',
        role: 'Sys_Admin',
      });
      expect(switched.json().user).toMatchObject({ team_id: teamB, role: 'Admin' });
      expect((await c.get('/api/auth/user')).json().user.role).toBe('Admin');
      expect((await c.post('/api/userTrials', { trialNumber: '1', trialName: 'B trial' })).statusCode).toBe(
        200,
      );
      const stranger = await createTeam(t.ctx.db, { name: 'Identity C' });
      const refused = await c.post('/api/selectTeam', { teamId: stranger });
      expect(refused.statusCode).toBe(403);
      expect((await c.get('/api/auth/user')).json().user.team_id).toBe(teamB);
      const other = await newUser({ sfa: false });
      expect((await c.get(`/api/userTeamsData/${other.id}`)).statusCode).toBe(404);
      expect((await c.get('/api/team')).json()).toHaveLength(2);
      // The last team chosen is where the next sign-in lands.
      expect((await t.client().login(u.username, PW)).user.team_id).toBe(teamB);
    });
  });

  it('every write here needs the CSRF header', async () => {
    const writes = [
      '/api/auth/verifyTOTP',
      '/api/auth/validateTOTP',
      '/api/auth/generateSendEmailTOTP',
      '/api/auth/resetSFA',
      '/api/auth/forgotPassword',
      '/api/auth/resetPasswordValidation',
      '/api/auth/resetPassword',
      '/api/auth/changePwdReq',
      '/api/userSignUpPermission/approveSignUp',
      '/api/userSignUpPermission/signupRequestValidation',
      '/api/users/signup',
      '/api/Participants/signup',
      '/api/recaptchaVer3Verify',
      '/api/selectTeam',
      '/api/auth/login',
      '/api/auth/logout',
      '/api/auth/refreshToken',
    ];
    for (const url of writes) {
      const res = await t.client().post(url, {}, { csrf: false });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().reason, url).toBe('CsrfError');
    }
  });
});
