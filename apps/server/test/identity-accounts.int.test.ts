import { PASSWORD_FLOW_MESSAGES, PASSWORD_MESSAGES, SIGNUP_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTeam, FIXTURE_PASSWORD, identityTeams, type NewTestUser } from './support/fixtures.js';
import { lastMail, mailText } from './support/mail.js';
import { createTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { testClock } from './support/test-clock.js';

const clock = testClock('2026-05-04T08:00:00Z');

describe('identity: passwords, sign-up, teams, CSRF', () => {
  let t: TestApp;
  let teamA: number;
  let teamB: number;
  let newUser: NewTestUser;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    ({ teamA, teamB, newUser } = await identityTeams(t));
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

  describe('sign-up by approval', () => {
    let sys: TestClient;
    beforeAll(async () => {
      const s = await newUser({ sfa: false, role: 'Sys_Admin' });
      sys = t.client();
      await sys.login(s.username, FIXTURE_PASSWORD);
    });

    it('only a Sys_Admin approves; messages exact', async () => {
      const admin = await newUser({ sfa: false, role: 'Admin' });
      const a = t.client();
      await a.login(admin.username, FIXTURE_PASSWORD);
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
      const login = await c.login(u.username, FIXTURE_PASSWORD);
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
      const stranger = await createTestTeam(t, 'Identity C');
      const refused = await c.post('/api/selectTeam', { teamId: stranger });
      expect(refused.statusCode).toBe(403);
      expect((await c.get('/api/auth/user')).json().user.team_id).toBe(teamB);
      const other = await newUser({ sfa: false });
      expect((await c.get(`/api/userTeamsData/${other.id}`)).statusCode).toBe(404);
      expect((await c.get('/api/team')).json()).toHaveLength(2);
      // The last team chosen is where the next sign-in lands.
      expect((await t.client().login(u.username, FIXTURE_PASSWORD)).user.team_id).toBe(teamB);
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
