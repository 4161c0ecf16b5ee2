/*
 * Linking a Fitbit end to end over real HTTP: the portal and its mounted
 * simulator talk exactly as the portal and Fitbit would.
 */
import { LINK_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughAuthorizePage } from '../support/consent.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, tokenRowsOf } from '../support/linked-participant.js';
import { lastMail, mailText } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('Fitbit authorization and device list', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let base: string;
  let trialId: number;
  let otherTeamParticipant: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    base = t.ctx.config.publicUrl;
    a = await teamWithRoles(t, 'Fitbit A', { hiddenFields: [] });
    b = await teamWithRoles(t, 'Fitbit B', { hiddenFields: [] });
    trialId = (await a.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Wear' })).json()
      .trialId;
    const trialB = (await b.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Other' })).json()
      .trialId;
    otherTeamParticipant = (
      await b.as.Admin.post('/api/trialParticipants', { trialId: trialB, email: 'other@x.example' })
    ).json().participantId;
  });
  afterAll(() => t.close());

  let participants = 0;
  /** A participant of the test's own (a new email, so its consent mail is its own). */
  async function newParticipant() {
    participants += 1;
    const email = `wearer${participants}@x.example`;
    const id = (await a.as.Admin.post('/api/trialParticipants', { trialId, email })).json()
      .participantId as number;
    return { id, email };
  }
  /** A participant of the test's own, linked through consent and callback. */
  async function linked() {
    const { id } = await newParticipant();
    await linkParticipant(t, a, id, 'fitbit');
    return id;
  }
  /** The participant's token row. */
  const tokenOf = (participantId: number) => tokenRowsOf(t, participantId);

  /** Consent as the participant's browser would: link → authorize URL → simulator page → Allow → callback. */
  async function consent(pid: number, decision: 'allow' | 'deny' = 'allow') {
    const req = await a.as.Admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
    if (req.statusCode !== 200) throw new Error(req.body);
    const { callback, form } = await throughAuthorizePage(base, 'fitbit', req.json().link, { decision });
    return { callback, account: form.account!, state: callback.searchParams.get('state')! };
  }

  it('consent → callback → tokens stored encrypted, device authorized, device list shown', async () => {
    const { id: participantId, email } = await newParticipant();
    expect((await a.as.Admin.get(`/api/fitbitIsParticipantAuth/${participantId}`)).json()).toEqual({
      message: 'not found',
    });
    const { callback, state } = await consent(participantId);
    expect(callback.pathname).toBe('/fitbit-callback');
    expect(state.startsWith(`${participantId}.`)).toBe(true); // the participant id stays readable
    const mail = mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${email}`)));
    expect(mail).toContain(`${base}/PAFitbitConsentPage?id=${participantId}&t=`);

    const done = await t
      .client()
      .post('/api/fitbit-callback', { authCode: callback.searchParams.get('code'), participantId: state });
    expect(done.statusCode).toBe(200);
    expect((await a.as.Admin.get(`/api/fitbitIsParticipantAuth/${participantId}`)).json()).toEqual({
      message: 'found',
    });

    const row = await tokenOf(participantId).executeTakeFirstOrThrow();
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
    expect(list.participants.find((p: { id: number }) => p.id === participantId).authorized_devices).toEqual([
      'fitbit',
    ]);
  });

  it('forged and replayed states are refused', async () => {
    const { id: participantId } = await newParticipant();
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
    const { id: participantId } = await newParticipant();
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

  async function providerUser(participantId: number) {
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
    const participantId = await linked();
    await control('expire-token', { userId: await providerUser(participantId) });
    const before = await tokenOf(participantId).executeTakeFirstOrThrow();
    const results = await Promise.all(
      [1, 2, 3].map(() => a.as.Admin.get(`/api/participantDevices/${participantId}/fitbit`)),
    );
    for (const r of results) expect(r.json()[0]).toMatchObject({ hasError: false, deviceType: 'TRACKER' });
    const after = await tokenOf(participantId).executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version + 1); // one rotation, not three (a second would have hit 409/400)
  });

  it('429 at the provider → "Rate limit exceeded" card without retries; revoked at the provider → "Authentication required"', async () => {
    const participantId = await linked();
    await control('exhaust-rate-limit', {
      userId: await providerUser(participantId),
      clientId: 'TRIALWEARSIM',
    });
    const before = Number((await tokenOf(participantId).executeTakeFirstOrThrow()).version);
    expect((await a.as.Admin.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual([
      expect.objectContaining({ device: 'Error', hasError: true, errorType: 'Rate limit exceeded' }),
    ]);
    // No refresh or retry on a 429: the token is untouched.
    expect(Number((await tokenOf(participantId).executeTakeFirstOrThrow()).version)).toBe(before);
    // An hour later the window is fresh; the participant has revoked TrialWear at Fitbit meanwhile.
    await control('clock', { advanceMs: 3_600_000 });
    try {
      await control('revoke', { userId: await providerUser(participantId) });
      expect((await a.as.Admin.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual([
        expect.objectContaining({ device: 'Error', hasError: true, errorType: 'Authentication required' }),
      ]);
    } finally {
      // The simulator's clock is the whole file's: back to real time even when the test fails.
      await control('clock', { reset: true });
    }
  });

  it('revoke needs the CSRF header, then unlinks', async () => {
    const participantId = await linked();
    expect((await a.as.Admin.get(`/api/revokeAccessToken/${participantId}`)).statusCode).toBe(403);
    const res = await a.as.Admin.request('GET', `/api/revokeAccessToken/${participantId}`, undefined, {
      headers: { 'x-csrf-token': await a.as.Admin.csrfToken() },
    });
    expect(res.statusCode).toBe(200);
    expect((await a.as.Admin.get(`/api/fitbitIsParticipantAuth/${participantId}`)).json()).toEqual({
      message: 'not found',
    });
    expect(await tokenOf(participantId).execute()).toHaveLength(0);
  });
});
