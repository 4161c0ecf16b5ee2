import { PARTICIPANT_SIGNUP_MESSAGES, PASSWORD_FLOW_MESSAGES, SIGNUP_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { allMail, lastMail, mailText } from '../support/mail.js';
import { createTestApp, type TestApp, type TestClient } from '../support/test-app.js';

describe('identity: sign-up', () => {
  let t: TestApp;
  let teamA: number;
  let teamB: number;
  let newUser: NewTestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ teamA, teamB, newUser } = await identityTeams(t));
  });
  afterAll(() => t.close());

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
      expect(res.json()).toEqual({ success: true, message: PARTICIPANT_SIGNUP_MESSAGES.received });
      await settleAfterResponse();
      expect(
        await t.ctx.db
          .selectFrom('participant_accounts')
          .select('id')
          .where('username', '=', 'pat01')
          .execute(),
      ).toHaveLength(1);
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

    it('participant sign-up does not tell whether an email has an account: same answer, the owner is told by email', async () => {
      const signUp = async (username: string, email: string) => {
        const res = await t.client().post('/api/Participants/signup', {
          username,
          password: 'Patient-pw1!',
          confirmPassword: 'Patient-pw1!',
          email,
        });
        // The account is created after the answer: let it finish before the next sign-up, so which
        // one comes first (and wins the email and the username) is this test's order.
        await settleAfterResponse();
        return { status: res.statusCode, body: res.json() };
      };
      const fresh = await signUp('carol01', 'carol@x.example');
      const sameEmail = await signUp('carol02', 'CAROL@x.example');
      const sameUsername = await signUp('Carol01', 'dave@x.example');
      expect(fresh).toEqual({
        status: 200,
        body: { success: true, message: PARTICIPANT_SIGNUP_MESSAGES.received },
      });
      expect(sameEmail).toEqual(fresh);
      expect(sameUsername).toEqual(fresh);

      const carol = await allMail(
        t.dataDir,
        (m) => m.includes('To: carol@x.example') || m.includes('To: CAROL@x.example'),
      );
      const texts = carol.map(mailText);
      expect(texts).toHaveLength(2);
      expect(texts).toEqual(
        expect.arrayContaining([
          expect.stringContaining('Your TrialWear participant account "carol01" was created.'),
          expect.stringContaining('(username "carol01"). No second account was created.'),
        ]),
      );
      expect(mailText(lastMail(t.dataDir, (m) => m.includes('To: dave@x.example')))).toContain(
        'The username "Carol01" is already taken, so no participant account was created.',
      );
      const accounts = await t.ctx.db
        .selectFrom('participant_accounts')
        .select(['id', 'username', 'email'])
        .where('username', 'ilike', 'carol%')
        .execute();
      expect(accounts).toEqual([{ id: expect.any(Number), username: 'carol01', email: 'carol@x.example' }]);
      // Participant-account creation (and the refused attempts) are audited.
      const audit = await t.ctx.db
        .selectFrom('audit_log')
        .select(['action', 'entity_type', 'entity_id'])
        .where('entity_type', '=', 'participant_account')
        .orderBy('id')
        .execute();
      expect(audit.slice(-3)).toHaveLength(3);
      expect(audit.slice(-3)).toEqual(
        expect.arrayContaining([
          {
            action: 'participant_account.created',
            entity_type: 'participant_account',
            entity_id: String(accounts[0]!.id),
          },
          {
            action: 'participant_account.signup.email_taken',
            entity_type: 'participant_account',
            entity_id: String(accounts[0]!.id),
          },
          {
            action: 'participant_account.signup.username_taken',
            entity_type: 'participant_account',
            entity_id: null,
          },
        ]),
      );
    });

    it('concurrent participant sign-ups with one email create one account and tell every sender', async () => {
      const usernames = ['erin01', 'erin02', 'erin03', 'erin04'];
      const answers = await Promise.all(
        usernames.map((username, i) =>
          t.client().post('/api/Participants/signup', {
            username,
            password: 'Patient-pw1!',
            confirmPassword: 'Patient-pw1!',
            email: i % 2 ? 'ERIN@x.example' : 'erin@x.example',
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      const texts = (await allMail(t.dataDir, (m) => /To: erin@x\.example/i.test(m))).map(mailText);
      expect(texts).toHaveLength(4);
      const accounts = await t.ctx.db
        .selectFrom('participant_accounts')
        .select(['username'])
        .where('email', 'ilike', 'erin@x.example')
        .execute();
      expect(accounts).toHaveLength(1);
      const winner = accounts[0]!.username;
      expect(texts.filter((m) => m.includes(`account "${winner}" was created.`))).toHaveLength(1);
      expect(
        texts.filter((m) => m.includes(`(username "${winner}"). No second account was created.`)),
      ).toHaveLength(3);
    });
  });
});
