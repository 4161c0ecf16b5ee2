/*
 * Linking a Fitbit end to end over real HTTP: the portal and its mounted
 * simulator talk exactly as the portal and Fitbit would.
 */
import { LINK_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughAuthorizePage } from '../support/consent.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { lastMail, mailText } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('Fitbit authorization and device list', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let base: string;
  let participantId: number;
  let otherTeamParticipant: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    base = t.ctx.config.publicUrl;
    a = await teamWithRoles(t, 'Fitbit A', { hiddenFields: [] });
    b = await teamWithRoles(t, 'Fitbit B', { hiddenFields: [] });
    const trialId = (await a.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Wear' })).json()
      .trialId;
    participantId = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: 'wearer@x.example' })
    ).json().participantId;
    const trialB = (await b.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Other' })).json()
      .trialId;
    otherTeamParticipant = (
      await b.as.Admin.post('/api/trialParticipants', { trialId: trialB, email: 'other@x.example' })
    ).json().participantId;
  });
  afterAll(() => t.close());

  /** Consent as the participant's browser would: link → authorize URL → simulator page → Allow → callback. */
  async function consent(pid: number, decision: 'allow' | 'deny' = 'allow') {
    const req = await a.as.Admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
    if (req.statusCode !== 200) throw new Error(req.body);
    const { callback, form } = await throughAuthorizePage(base, 'fitbit', req.json().link, { decision });
    return { callback, account: form.account!, state: callback.searchParams.get('state')! };
  }

  it('consent → callback → tokens stored encrypted, device authorized, device list shown', async () => {
    expect((await a.as.Admin.get(`/api/fitbitIsParticipantAuth/${participantId}`)).json()).toEqual({
      message: 'not found',
    });
    const { callback, state } = await consent(participantId);
    expect(callback.pathname).toBe('/fitbit-callback');
    expect(state.startsWith(`${participantId}.`)).toBe(true); // the participant id stays readable
    const mail = mailText(lastMail(t.dataDir, (m) => m.includes('To: wearer@x.example')));
    expect(mail).toContain(`${base}/PAFitbitConsentPage?id=${participantId}&t=`);

    const done = await t
      .client()
      .post('/api/fitbit-callback', { authCode: callback.searchParams.get('code'), participantId: state });
    expect(done.statusCode).toBe(200);
    expect((await a.as.Admin.get(`/api/fitbitIsParticipantAuth/${participantId}`)).json()).toEqual({
      message: 'found',
    });

    const row = await t.ctx.db.selectFrom('provider_tokens').selectAll().executeTakeFirstOrThrow();
    expect(row.access_token_enc).toMatch(/^v2\./);
    expect(row.access_token_enc).not.toContain('fitbit.at.');
    const devices = (await a.as.Admin.get(`/api/participantDevices/${participantId}/fitbit`)).json();
    expect(devices[0]).toMatchObject({
      device: 'fitness tracker',
      deviceType: 'TRACKER',
      hasError: false,
      batteryLevel: expect.any(Number),
    });
    // A name people know, not only the model ('Fitbit Sense 2').
    expect(devices[0].deviceName).toBe(`Fitbit ${devices[0].deviceVersion}`);
    expect(JSON.stringify(devices)).not.toMatch(/fitbit\.(at|rt)\./); // tokens never reach the browser
    const list = (
      await a.as.Admin.get(
        `/api/trialParticipants/${(await t.ctx.db.selectFrom('participants').select('trial_id').where('id', '=', participantId).executeTakeFirstOrThrow()).trial_id}`,
      )
    ).json();
    expect(list.participants[0].authorized_devices).toEqual(['fitbit']);
  });

  it('forged and replayed states are refused', async () => {
    const { callback, state } = await consent(participantId);
    const code = callback.searchParams.get('code');
    const forged = state.replace(/^\d+/, String(otherTeamParticipant));
    const res1 = await t.client().post('/api/fitbit-callback', { authCode: code, participantId: forged });
    expect(res1.statusCode).toBe(422);
    expect(res1.json().message).toBe(LINK_MESSAGES.invalidState);
    expect(
      (
        await t
          .client()
          .post('/api/fitbit-callback', { authCode: code, participantId: String(participantId) })
      ).statusCode,
    ).toBe(422);
    expect(
      (await t.client().post('/api/fitbit-callback', { authCode: code, participantId: state })).statusCode,
    ).toBe(200);
    const replay = await t.client().post('/api/fitbit-callback', { authCode: code, participantId: state });
    expect(replay.statusCode).toBe(422);
    // A consent link cannot be made up for another participant.
    const guess = await fetch(
      `${base}/api/consent/fitbit/authorizeUrl?id=${otherTeamParticipant}&t=${'x'.repeat(32)}`,
    );
    expect(guess.status).toBe(422);
  });

  it("another team's participant cannot be asked, listed, refreshed or revoked", async () => {
    for (const res of [
      await a.as.Admin.post(`/api/participantDevices/${otherTeamParticipant}/fitbit/consentRequest`),
      await a.as.Sys_Admin.get(`/api/participantDevices/${otherTeamParticipant}/fitbit`),
      await a.as.Admin.post('/api/fitbitRefreshToken', { id: otherTeamParticipant }),
      await a.as.Admin.request('GET', `/api/revokeAccessToken/${otherTeamParticipant}`, undefined, {
        headers: { 'x-csrf-token': await a.as.Admin.csrfToken() },
      }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect(
      (await a.as.Viewer.post(`/api/participantDevices/${participantId}/fitbit/consentRequest`)).statusCode,
    ).toBe(403);
  });

  async function providerUser() {
    return (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('provider_user_id')
        .where('participant_id', '=', participantId)
        .executeTakeFirstOrThrow()
    ).provider_user_id!;
  }
  const control = (path: string, body: object) =>
    fetch(`${base}/sim/fitbit/_control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('an expired token is refreshed once and the call retried; concurrent requests refresh once', async () => {
    await control('expire-token', { userId: await providerUser() });
    const before = await t.ctx.db.selectFrom('provider_tokens').select('version').executeTakeFirstOrThrow();
    const results = await Promise.all(
      [1, 2, 3].map(() => a.as.Admin.get(`/api/participantDevices/${participantId}/fitbit`)),
    );
    for (const r of results) expect(r.json()[0]).toMatchObject({ hasError: false, deviceType: 'TRACKER' });
    const after = await t.ctx.db.selectFrom('provider_tokens').select('version').executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version + 1); // one rotation, not three (a second would have hit 409/400)
  });

  it('429 at the provider → "Rate limit exceeded" card without retries; revoked at the provider → "Authentication required"', async () => {
    await control('exhaust-rate-limit', { userId: await providerUser(), clientId: 'TRIALWEARSIM' });
    const before = Number(
      (await t.ctx.db.selectFrom('provider_tokens').select('version').executeTakeFirstOrThrow()).version,
    );
    expect((await a.as.Admin.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual([
      expect.objectContaining({ device: 'Error', hasError: true, errorType: 'Rate limit exceeded' }),
    ]);
    // No refresh or retry on a 429: the token is untouched.
    expect(
      Number(
        (await t.ctx.db.selectFrom('provider_tokens').select('version').executeTakeFirstOrThrow()).version,
      ),
    ).toBe(before);
    // An hour later the window is fresh; the participant has revoked TrialWear at Fitbit meanwhile.
    await control('clock', { advanceMs: 3_600_000 });
    await control('revoke', { userId: await providerUser() });
    expect((await a.as.Admin.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual([
      expect.objectContaining({ device: 'Error', hasError: true, errorType: 'Authentication required' }),
    ]);
    await control('clock', { reset: true });
  });

  it('revoke needs the CSRF header, then unlinks', async () => {
    expect((await a.as.Admin.get(`/api/revokeAccessToken/${participantId}`)).statusCode).toBe(403);
    const res = await a.as.Admin.request('GET', `/api/revokeAccessToken/${participantId}`, undefined, {
      headers: { 'x-csrf-token': await a.as.Admin.csrfToken() },
    });
    expect(res.statusCode).toBe(200);
    expect((await a.as.Admin.get(`/api/fitbitIsParticipantAuth/${participantId}`)).json()).toEqual({
      message: 'not found',
    });
    expect(
      await t.ctx.db.selectFrom('provider_tokens').select('participant_device_id').execute(),
    ).toHaveLength(0);
  });
});
