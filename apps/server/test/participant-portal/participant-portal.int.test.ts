/*
 * Participant accounts (issue #14): sign-in with the staff sign-in's lockout,
 * the email confirmation that ties an account to enrolled participants, the
 * list of shared devices, "Stop sharing" (the token is revoked at the
 * simulator over real HTTP) and isolation between participants and from
 * staff sessions.
 */
import { LOGIN_MESSAGES, PARTICIPANT_PORTAL_MESSAGES, SFA_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokens } from '../../src/providers/token-store.js';
import { throughAuthorizePage } from '../support/consent.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { mailAfterAnswer, mailText } from '../support/mail.js';
import { createTestApp, type TestApp, type TestClient } from '../support/test-app.js';

const PASSWORD = 'Patient-pw1!';

describe('participant sign-in and sharing', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    base = t.ctx.config.publicUrl;
    a = await teamWithRoles(t, 'Portal A', { hiddenFields: [] });
    b = await teamWithRoles(t, 'Portal B', { hiddenFields: [] });
  });
  afterAll(() => t.close());

  /** Signs up (the real form call) and returns the confirmation token of the mail. */
  async function signUp(username: string, email: string) {
    const res = await t
      .client()
      .post('/api/Participants/signup', { username, password: PASSWORD, confirmPassword: PASSWORD, email });
    expect(res.statusCode).toBe(200);
    const mail = mailText(await mailAfterAnswer(t.dataDir, (m) => m.includes(`To: ${email}`)));
    const link = mail.match(/\/ParticipantLoginPage\?verify=([\w-]+)/);
    if (!link) throw new Error(`no confirmation link in: ${mail}`);
    return link[1]!;
  }

  async function enrolAndLink(team: TeamFixture, trialName: string, email: string) {
    const trialId = (
      await team.as.Admin.post('/api/userTrials', {
        trialNumber: String(Math.random()).slice(2, 8),
        trialName,
      })
    ).json().trialId;
    const participantId = (await team.as.Admin.post('/api/trialParticipants', { trialId, email })).json()
      .participantId as number;
    const req = await team.as.Admin.post(`/api/participantDevices/${participantId}/fitbit/consentRequest`);
    expect(req.statusCode).toBe(200);
    const { callback } = await throughAuthorizePage(base, 'fitbit', req.json().link, {
      account: `acct-${participantId}`,
    });
    const done = await t.client().post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
    expect(done.statusCode).toBe(200);
    return participantId;
  }

  const accountIdOf = async (username: string) =>
    (
      await t.ctx.db
        .selectFrom('participant_accounts')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  const signIn = async (c: TestClient, username: string, password = PASSWORD, verifyToken?: string) =>
    c.post('/api/participantAuth/login', { username, password, ...(verifyToken ? { verifyToken } : {}) });

  it('signs in with the right password only; the sign-up link confirms the email; sign-out ends the session', async () => {
    const token = await signUp('sharer01', 'sharer01@x.example');
    const c = t.client();
    const wrong = await signIn(c, 'sharer01', 'Wrong-pw1!');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(LOGIN_MESSAGES.invalidCredentials);
    // An unknown username answers exactly the same.
    const unknown = await signIn(c, 'nobody-here', PASSWORD);
    expect([unknown.statusCode, unknown.json().message]).toEqual([401, LOGIN_MESSAGES.invalidCredentials]);
    expect((await c.get('/api/participantAuth/account')).statusCode).toBe(401);

    const first = await signIn(c, 'SHARER01'); // usernames are case-insensitive, like staff ones
    expect(first.statusCode).toBe(200);
    expect(first.json().account).toEqual({
      username: 'sharer01',
      email: 'sharer01@x.example',
      emailConfirmed: false,
    });
    expect((await c.get('/api/participantAuth/sharing')).json()).toEqual({
      emailConfirmed: false,
      links: [],
    });
    // A wrong token confirms nothing; the mailed one does.
    expect((await signIn(c, 'sharer01', PASSWORD, 'not-the-token')).json().account.emailConfirmed).toBe(
      false,
    );
    expect((await signIn(c, 'sharer01', PASSWORD, token)).json().account.emailConfirmed).toBe(true);
    expect((await c.get('/api/participantAuth/account')).json().account.emailConfirmed).toBe(true);

    // Sign-out needs the CSRF header like every write, then the session is gone.
    expect((await c.post('/api/participantAuth/logout', {}, { csrf: false })).statusCode).toBe(403);
    expect((await c.post('/api/participantAuth/logout', {})).json().message).toBe(
      PARTICIPANT_PORTAL_MESSAGES.signedOut,
    );
    expect((await c.get('/api/participantAuth/account')).statusCode).toBe(401);

    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('entity_type', '=', 'participant_account')
      .where('entity_id', '=', String(await accountIdOf('sharer01')))
      .where('action', 'like', 'participant_account.log%')
      .orderBy('id')
      .execute();
    expect(audit.map((r) => r.action)).toEqual([
      'participant_account.login',
      'participant_account.login',
      'participant_account.login',
      'participant_account.logout',
    ]);
  });

  it('five wrong passwords lock the account with the staff lock message, the right one included; counted apart from staff usernames', async () => {
    await signUp('locky01', 'locky01@x.example');
    const c = t.client();
    for (let i = 0; i < 4; i++) expect((await signIn(c, 'locky01', 'Wrong-pw1!')).statusCode).toBe(401);
    const fifth = await signIn(c, 'locky01', 'Wrong-pw1!');
    expect([fifth.statusCode, fifth.json().message]).toEqual([423, SFA_MESSAGES.locked]);
    const right = await signIn(c, 'locky01');
    expect([right.statusCode, right.json().message]).toEqual([423, SFA_MESSAGES.locked]);
    expect((await c.get('/api/participantAuth/account')).statusCode).toBe(401);
    const lock = await t.ctx.db
      .selectFrom('login_lockouts')
      .select(['username_key', 'lock_count'])
      .where('username_key', 'like', '%locky01')
      .execute();
    expect(lock).toEqual([{ username_key: 'participant:locky01', lock_count: 1 }]);
  });

  it('lists only authorized links of participants with the confirmed email, across teams; stop sharing revokes at the provider', async () => {
    const email = 'wearer.portal@x.example';
    const pidA = await enrolAndLink(a, 'Sleep Study', email);
    const pidB = await enrolAndLink(b, 'Heart Study', email.toUpperCase()); // emails match case-insensitively
    const otherPid = await enrolAndLink(a, 'Other Study', 'someone.else@x.example');

    const token = await signUp('wearer01', email);
    const c = t.client();
    await signIn(c, 'wearer01', PASSWORD, token);
    const sharing = (await c.get('/api/participantAuth/sharing')).json();
    expect(sharing.emailConfirmed).toBe(true);
    expect(sharing.links.map((l: { trialName: string }) => l.trialName).sort()).toEqual([
      'Heart Study',
      'Sleep Study',
    ]);
    for (const link of sharing.links) {
      expect(link.provider).toBe('fitbit');
      expect(new Date(link.since).getTime()).toBeGreaterThan(Date.now() - 5 * 60_000);
    }
    const sleep = sharing.links.find((l: { trialName: string }) => l.trialName === 'Sleep Study');
    expect(sleep.teamName).toBe('Portal A');

    // Another participant's link answers 404, like a missing one, and stays authorized.
    const otherLink = await t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', '=', otherPid)
      .executeTakeFirstOrThrow();
    const refused = await c.post(`/api/participantAuth/sharing/${otherLink.id}/stop`, {});
    expect([refused.statusCode, refused.json().message]).toEqual([
      404,
      PARTICIPANT_PORTAL_MESSAGES.linkNotFound,
    ]);
    expect((await a.as.Admin.get(`/api/fitbitIsParticipantAuth/${otherPid}`)).json()).toEqual({
      message: 'found',
    });

    // The provider accepts the stored token before, refuses it after.
    const tokens = await loadTokens(t.ctx, sleep.linkId);
    const devices = () =>
      fetch(`${base}/sim/fitbit/1/user/-/devices.json`, {
        headers: { authorization: `Bearer ${tokens!.accessToken}` },
      });
    expect((await devices()).status).toBe(200);

    expect(
      (await c.post(`/api/participantAuth/sharing/${sleep.linkId}/stop`, {}, { csrf: false })).statusCode,
    ).toBe(403);
    const stopped = await c.post(`/api/participantAuth/sharing/${sleep.linkId}/stop`, {});
    expect(stopped.json()).toEqual({ success: true, message: PARTICIPANT_PORTAL_MESSAGES.stopped });
    expect((await devices()).status).toBe(401);
    // Staff see it revoked; the other study's link is untouched.
    expect((await a.as.Admin.get(`/api/participantDevices/${pidA}/fitbit/status`)).json().status).toBe(
      'revoked',
    );
    expect((await b.as.Admin.get(`/api/fitbitIsParticipantAuth/${pidB}`)).json()).toEqual({
      message: 'found',
    });
    expect(
      (await c.get('/api/participantAuth/sharing'))
        .json()
        .links.map((l: { trialName: string }) => l.trialName),
    ).toEqual(['Heart Study']);
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'team_id', 'user_id', 'entity_id', 'after'])
      .where('action', '=', 'fitbit.revoked')
      .where('entity_id', 'in', [String(pidA), String(pidB), String(otherPid)])
      .execute();
    expect(audit).toEqual([
      {
        action: 'fitbit.revoked',
        team_id: a.teamId,
        user_id: null,
        entity_id: String(pidA),
        after: { by: 'participant', participantAccountId: expect.any(Number) },
      },
    ]);
  });

  it('an account whose email is not confirmed sees nothing, even with a matching participant', async () => {
    const email = 'claimer@x.example';
    await enrolAndLink(a, 'Claim Study', email);
    await signUp('claimer01', email); // the link in the mail is never opened
    const c = t.client();
    await signIn(c, 'claimer01');
    expect((await c.get('/api/participantAuth/sharing')).json()).toEqual({
      emailConfirmed: false,
      links: [],
    });
    const link = await t.ctx.db
      .selectFrom('participant_devices as d')
      .innerJoin('participants as p', 'p.id', 'd.participant_id')
      .select('d.id')
      .where('p.email', '=', email)
      .executeTakeFirstOrThrow();
    expect((await c.post(`/api/participantAuth/sharing/${link.id}/stop`, {})).statusCode).toBe(404);
  });

  it('a participant session passes no staff route, a staff session no participant route', async () => {
    const token = await signUp('crossing01', 'crossing01@x.example');
    const p = t.client();
    await signIn(p, 'crossing01', PASSWORD, token);
    for (const url of ['/api/userTrials/', '/api/team', '/api/auth/login/'])
      expect((await p.get(url)).statusCode).toBe(401);
    expect((await p.get('/api/auth/user')).json()).toEqual({ message: 'NotSignedIn', user: null });
    for (const url of ['/api/participantAuth/account', '/api/participantAuth/sharing'])
      expect((await a.as.Sys_Admin.get(url)).statusCode).toBe(401);
  });
});
