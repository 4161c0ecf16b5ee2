/*
 * Linking a Fitbit through the Google Health API (the default back end):
 * Google's consent (offline access, forced consent, PKCE, the portal's
 * scopes), the callback storing the Google tokens encrypted and the Google
 * identity, the device card from the paired devices, the link status naming
 * the API, a refresh that keeps the (non-rotated) refresh token, and revoke.
 * Over real HTTP against the Google Health simulator mounted in the app.
 */
import { LINK_MESSAGES, linkedMessage } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_HEALTH_SCOPES } from '../../src/providers/fitbit/google-health/settings.js';
import { decryptSecret } from '../../src/security/encryption.js';
import { throughAuthorizePage } from '../support/consent.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { simControl, trialWithParticipants } from '../support/linked-participant.js';
import { lastMail, mailText } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('Fitbit through the Google Health API: link, device card, tokens, refresh, revoke', () => {
  let t: TestApp;
  let a: TeamFixture;
  let base: string;
  let trialId: number;
  const sim = () => simControl(t, 'google-health');
  const tokenRow = (pid: number) =>
    t.ctx.db
      .selectFrom('provider_tokens as t')
      .innerJoin('participant_devices as d', 'd.id', 't.participant_device_id')
      .selectAll('t')
      .where('d.participant_id', '=', pid)
      .executeTakeFirstOrThrow();
  const key = () => t.ctx.secrets.encryptionKey;

  beforeAll(async () => {
    // FITBIT_API unset: the default, Google Health.
    t = await createTestApp({ listen: true, env: { FITBIT_API: '' } });
    base = t.ctx.config.publicUrl;
    a = await teamWithRoles(t, 'Google A', { hiddenFields: [] });
    ({ trialId } = await trialWithParticipants(a, 'Google', []));
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** A participant of the test's own (a new email, so its consent mail is its own). */
  const newParticipant = async () => {
    participants += 1;
    const email = `gh${participants}@x.example`;
    const pid = (await a.as.Admin.post('/api/trialParticipants', { trialId, email })).json()
      .participantId as number;
    return { pid, email };
  };
  /** A participant of the test's own, linked through Google's consent and the callback. */
  const linked = async () => {
    const { pid } = await newParticipant();
    const req = await a.as.Admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
    const { callback } = await throughAuthorizePage(base, 'fitbit', req.json().link);
    const done = await t.client().post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
    expect(done.statusCode, done.body).toBe(200);
    return pid;
  };

  it('the default back end is the Google Health API; its client id is the simulator’s', async () => {
    expect(t.ctx.config.FITBIT_API).toBe('google_health');
    expect((await a.as.Admin.get('/api/fitbitClientId')).json()).toEqual({
      clientId: t.ctx.providers.links.google_health.settings.clientId,
      simulated: true,
    });
  });

  it('consent through Google → callback → link on the Google Health API, tokens encrypted, identity kept', async () => {
    const { pid, email } = await newParticipant();
    const req = await a.as.Admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
    expect(req.statusCode).toBe(200);
    const mail = mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${email}`)));
    expect(mail).toContain('sign in with the Google account your Fitbit uses');
    const { authorizeUrl, callback } = await throughAuthorizePage(base, 'fitbit', req.json().link);
    // Google's authorize page, with what Google needs to issue a refresh token (§2.2).
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(
      `${base}/sim/google-health/o/oauth2/v2/auth`,
    );
    const q = authorizeUrl.searchParams;
    expect(q.get('access_type')).toBe('offline');
    expect(q.get('prompt')).toBe('consent');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('scope')!.split(' ')).toEqual(GOOGLE_HEALTH_SCOPES);
    expect(q.get('redirect_uri')).toBe(`${base}/fitbit-callback`);
    expect(callback.pathname).toBe('/fitbit-callback');

    const done = await t.client().post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().message).toBe(linkedMessage('fitbit'));

    const link = await t.ctx.db
      .selectFrom('participant_devices')
      .selectAll()
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    const person = (await (
      await fetch(
        `${base}/sim/google-health/_control/person?state=${encodeURIComponent(callback.searchParams.get('state')!)}`,
      )
    ).json()) as { healthUserId: string; legacyUserId: string };
    expect(link).toMatchObject({
      provider: 'google_health',
      authorization_status: 'authorized',
      provider_user_id: person.healthUserId,
      legacy_user_id: person.legacyUserId,
    });
    const row = await tokenRow(pid);
    expect(row.access_token_enc).toMatch(/^v2\./);
    expect(row.access_token_enc).not.toContain('ya29.');
    expect(row.refresh_token_enc).not.toContain('1//');
    expect(decryptSecret(key(), row.access_token_enc)).toMatch(/^ya29\./);
    expect(decryptSecret(key(), row.refresh_token_enc!)).toMatch(/^1\/\//);
    expect(row.scope!.split(' ').sort()).toEqual([...GOOGLE_HEALTH_SCOPES].sort());

    // The trial page lists the link as a Fitbit link on the Google Health back end.
    const list = (await a.as.Admin.get(`/api/trialParticipants/${trialId}`)).json();
    expect(list.participants.find((p: { id: number }) => p.id === pid).authorized_devices).toEqual([
      'google_health',
    ]);
  });

  it('link status names the API; the device card comes from the paired devices, sync time local', async () => {
    const pid = await linked();
    const status = (await a.as.Viewer.get(`/api/participantDevices/${pid}/fitbit/status`)).json();
    expect(status).toMatchObject({
      status: 'authorized',
      api: 'google_health',
      reconsentRequired: false,
      revokeAvailable: true,
    });
    const user = (await t.ctx.db
      .selectFrom('participant_devices')
      .select('provider_user_id')
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow())!.provider_user_id!;
    await sim().post('user', {
      userId: user,
      tracker: { batteryLevel: 17, batteryStatus: 'Low', lastSyncTime: '2027-01-02T03:04:05Z' },
    });
    const settings = (await (
      await fetch(`${base}/sim/google-health/v4/users/me/settings`, {
        headers: { authorization: `Bearer ${decryptSecret(key(), (await tokenRow(pid)).access_token_enc)}` },
      })
    ).json()) as { timeZone: string };
    const devices = (await a.as.Admin.get(`/api/participantDevices/${pid}/fitbit`)).json();
    const tracker = devices.find((d: { deviceType: string }) => d.deviceType === 'TRACKER');
    // The portal's wall clock of the sync, checked against Intl directly (not @trialwear/zone).
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: settings.timeZone,
      dateStyle: 'short',
      timeStyle: 'medium',
    })
      .format(new Date('2027-01-02T03:04:05Z'))
      .replace(' ', 'T');
    expect(tracker).toMatchObject({
      device: 'fitness tracker',
      batteryLevel: 17,
      battery: 'Low',
      hasError: false,
      errorType: null,
      lastSyncTime: `${local}.000`,
    });
    expect(tracker.deviceName).toBe(`Fitbit ${tracker.deviceVersion}`);
    expect(JSON.stringify(devices)).not.toMatch(/ya29\.|1\/\//);
  });

  it('an expired access token is refreshed once and the call retried; the refresh token is kept (no rotation)', async () => {
    const pid = await linked();
    const before = await tokenRow(pid);
    const refreshBefore = decryptSecret(key(), before.refresh_token_enc!);
    const user = (await t.ctx.db
      .selectFrom('participant_devices')
      .select('provider_user_id')
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow())!.provider_user_id!;
    await sim().expire(user);
    const devices = (await a.as.Admin.get(`/api/participantDevices/${pid}/fitbit`)).json();
    expect(devices[0].hasError).toBe(false);
    const after = await tokenRow(pid);
    expect(after.version).toBe(before.version + 1);
    expect(decryptSecret(key(), after.access_token_enc)).not.toBe(
      decryptSecret(key(), before.access_token_enc),
    );
    expect(decryptSecret(key(), after.refresh_token_enc!)).toBe(refreshBefore);

    // Staff refresh: the same, and the kept refresh token works again.
    const res = await a.as.Admin.post('/api/fitbitRefreshToken', { id: pid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(LINK_MESSAGES.tokenRefreshed);
    expect(decryptSecret(key(), (await tokenRow(pid)).refresh_token_enc!)).toBe(refreshBefore);
    expect((await a.as.Admin.post('/api/fitbitRefreshToken', { id: pid })).statusCode).toBe(200);
  });

  it('revoke: Google forgets the grant, the tokens are deleted, the link is revoked', async () => {
    const pid = await linked();
    const refresh = decryptSecret(key(), (await tokenRow(pid)).refresh_token_enc!);
    const res = await a.as.Admin.request('GET', `/api/revokeAccessToken/${pid}`, undefined, {
      headers: { 'x-csrf-token': await a.as.Admin.csrfToken() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(LINK_MESSAGES.accessRevoked);
    expect(
      await t.ctx.db
        .selectFrom('provider_tokens as t')
        .innerJoin('participant_devices as d', 'd.id', 't.participant_device_id')
        .select('t.participant_device_id')
        .where('d.participant_id', '=', pid)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect((await a.as.Viewer.get(`/api/participantDevices/${pid}/fitbit/status`)).json()).toMatchObject({
      status: 'revoked',
      api: 'google_health',
    });
    // Google refuses the revoked refresh token.
    const again = await fetch(`${base}/sim/google-health/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: t.ctx.providers.links.google_health.settings.clientId,
        client_secret: t.ctx.providers.links.google_health.settings.clientSecret,
      }).toString(),
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
  });
});
