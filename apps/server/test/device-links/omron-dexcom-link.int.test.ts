/*
 * Omron and Dexcom links over real HTTP to their simulators: consent →
 * callback (participantData carries the signed state) → encrypted tokens →
 * device entries; expired tokens refresh once; revoke; isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughAuthorizePage } from '../support/consent.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, tokenRowsOf } from '../support/linked-participant.js';
import { lastMail, mailText } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SIM_PATHS = { omron: '/sim/omron/connect/authorize', dexcom: '/sim/dexcom/v2/oauth2/login' } as const;

describe.each(['omron', 'dexcom'] as const)('%s link', (provider) => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let base: string;
  let trialId: number;
  let otherPid: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    base = t.ctx.config.publicUrl;
    a = await teamWithRoles(t, `${provider} A`, { hiddenFields: [] });
    b = await teamWithRoles(t, `${provider} B`, { hiddenFields: [] });
    trialId = (await a.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Link' })).json()
      .trialId;
    const trialB = (await b.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Other' })).json()
      .trialId;
    otherPid = (
      await b.as.Admin.post('/api/trialParticipants', {
        trialId: trialB,
        email: `other-${provider}@x.example`,
      })
    ).json().participantId;
  });
  afterAll(() => t.close());

  let participants = 0;
  /** A participant of the test's own (a new email, so its consent mail is its own). */
  async function newParticipant() {
    participants += 1;
    const email = `${provider}${participants}@x.example`;
    const pid = (await a.as.Admin.post('/api/trialParticipants', { trialId, email })).json()
      .participantId as number;
    return { pid, email };
  }

  async function consent(pid: number, decision: 'allow' | 'deny' = 'allow') {
    const req = (await a.as.Admin.post(`/api/participantDevices/${pid}/${provider}/consentRequest`)).json();
    const link = new URL(req.link);
    expect(link.pathname).toBe(provider === 'omron' ? '/OmronConsentPage' : '/PAFitbitConsentPage');
    const { authorizeUrl, callback } = await throughAuthorizePage(base, provider, link, { decision });
    expect(authorizeUrl.pathname).toBe(SIM_PATHS[provider]);
    return callback;
  }
  const callback = (cb: URL) =>
    t.client().post(`/api/${provider}-callback`, {
      authCode: cb.searchParams.get('code'),
      participantData: cb.searchParams.get('state'),
    });
  /** A participant of the test's own, linked through consent and callback. */
  async function linked() {
    const { pid } = await newParticipant();
    await linkParticipant(t, a, pid, provider);
    return pid;
  }
  /** The participant's token row. */
  const tokenOf = (pid: number) => tokenRowsOf(t, pid).executeTakeFirstOrThrow();

  it('consent → callback → device entries', async () => {
    const { pid, email } = await newParticipant();
    const cb = await consent(pid);
    expect(cb.pathname).toBe(`/${provider}-callback`);
    expect(mailText(lastMail(t.dataDir, (m) => m.includes(`To: ${email}`)))).toContain(
      `${provider === 'omron' ? '/OmronConsentPage' : '/PAFitbitConsentPage'}?id=${pid}&t=`,
    );
    const done = await callback(cb);
    expect(done.statusCode).toBe(200);
    const row = await tokenOf(pid);
    expect(row.access_token_enc).toMatch(/^v2\./);
    const devices = (await a.as.Admin.get(`/api/participantDevices/${pid}/${provider}`)).json();
    expect(devices.length).toBeGreaterThan(0);
    expect(devices[0]).toMatchObject({
      hasError: false,
      device: provider === 'omron' ? 'scale' : 'glucose monitor',
    });
    // Human names: Omron's kind of device with the model as the version, Dexcom's generation.
    if (provider === 'omron')
      expect(devices[0]).toMatchObject({ deviceName: 'Blood pressure monitor', deviceVersion: 'BP7450' });
    else expect(devices[0]).toMatchObject({ deviceName: 'Dexcom G7', deviceVersion: 'G7 app on iOS' });
    if (provider === 'omron')
      expect((await a.as.Admin.get(`/api/omronIsParticipantAuth/${pid}`)).json()).toEqual({
        message: 'found',
      });
  });

  it('an expired token is refreshed once, then the call succeeds', async () => {
    const pid = await linked();
    const user =
      provider === 'omron'
        ? (
            await t.ctx.db
              .selectFrom('participant_devices')
              .select('provider_user_id')
              .where('participant_id', '=', pid)
              .executeTakeFirstOrThrow()
          ).provider_user_id
        : null;
    // Omron names its user in the id_token; for Dexcom expire through every user of the simulator.
    const body = user ? { userId: user } : { userId: '' };
    if (user)
      await fetch(`${base}/sim/${provider}/_control/expire-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const before = (await tokenOf(pid)).version;
    expect((await a.as.Admin.get(`/api/participantDevices/${pid}/${provider}`)).json()[0].hasError).toBe(
      false,
    );
    const after = (await tokenOf(pid)).version;
    expect(after).toBe(user ? before + 1 : before);
    expect((await a.as.Admin.post(`/api/${provider}RefreshToken`, { id: pid })).statusCode).toBe(200);
  });

  it("other teams' participants are unreachable; Viewer cannot revoke; revoke unlinks", async () => {
    const pid = await linked();
    expect((await a.as.Sys_Admin.get(`/api/participantDevices/${otherPid}/${provider}`)).statusCode).toBe(
      404,
    );
    expect((await a.as.Admin.post(`/api/${provider}RevokeToken`, { id: otherPid })).statusCode).toBe(404);
    expect((await a.as.Viewer.post(`/api/${provider}RevokeToken`, { id: pid })).statusCode).toBe(403);
    expect((await a.as.Admin.post(`/api/${provider}RevokeToken`, { id: pid })).statusCode).toBe(200);
    expect((await a.as.Admin.get(`/api/participantDevices/${pid}/${provider}`)).json()).toEqual([]);
  });

  it('Deny comes back with access_denied', async () => {
    const { pid } = await newParticipant();
    const cb = await consent(pid, 'deny');
    expect(cb.searchParams.get('error')).toBe('access_denied');
  });
});
