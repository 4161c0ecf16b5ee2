/*
 * A deployment that moved to the Google Health API (FITBIT_API=google_health)
 * with a participant linked earlier through the legacy Fitbit Web API: the
 * legacy link keeps working — device card, data, sync, refresh — through the
 * legacy API until it fails for good; then the Fitbit section says the
 * participant must consent again, and the consent request sends the Google
 * link, which moves the link to the Google Health API.
 */
import { LINK_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { throughAuthorizePage } from '../support/consent.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkLegacyFitbit, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('a legacy Fitbit link under FITBIT_API=google_health', () => {
  let t: TestApp;
  let a: TeamFixture;
  let base: string;
  let trialId: number;
  const status = async (id: number) =>
    (await a.as.Viewer.get(`/api/participantDevices/${id}/fitbit/status`)).json();

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { FITBIT_API: 'google_health' } });
    base = t.ctx.config.publicUrl;
    a = await teamWithRoles(t, 'Legacy', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', ['steps']);
    ({ trialId } = await trialWithParticipants(a, 'Legacy', []));
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** A participant of the test's own, not linked. */
  const newParticipant = async () => {
    participants += 1;
    return (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `legacy${participants}@x.example` })
    ).json().participantId as number;
  };
  /** A participant of the test's own with a legacy link (made before the deployment switched). */
  const legacyLinked = async () => {
    const pid = await newParticipant();
    return { pid, legacyUser: (await linkLegacyFitbit(t, a, pid)).provider_user_id! };
  };

  it('keeps working through the legacy API: status, device card, data, refresh', async () => {
    const { pid, legacyUser } = await legacyLinked();
    expect(await status(pid)).toMatchObject({
      status: 'authorized',
      api: 'legacy',
      reconsentRequired: false,
    });
    const devices = (await a.as.Admin.get(`/api/participantDevices/${pid}/fitbit`)).json();
    expect(devices[0]).toMatchObject({ device: 'fitness tracker', hasError: false });
    const steps = await a.as.Viewer.get(
      `/api/getFitbitServerParticipantData/${pid}/-/${encodeURIComponent('/activities/steps/date/2026-01-01/2026-01-07.json')}`,
    );
    expect(steps.statusCode).toBe(200);
    // The legacy simulator answered it (its calls are counted per legacy user).
    expect(await simControl(t, 'fitbit').calls(legacyUser)).toBeGreaterThan(0);
    expect((await a.as.Admin.post('/api/fitbitRefreshToken', { id: pid })).statusCode).toBe(200);
  });

  it('the sync of a legacy link reads through the legacy API', async () => {
    const syncedPid = await newParticipant();
    const link = await linkLegacyFitbit(t, a, syncedPid);
    const r = await syncDevice(t.ctx, link.id);
    expect(r.status, r.errors.join('; ')).toBe('synced');
    const providers = await t.ctx.db
      .selectFrom('device_readings')
      .select('provider')
      .distinct()
      .where('participant_id', '=', syncedPid)
      .execute();
    expect(providers.map((p) => p.provider)).toEqual(['fitbit']);
    // When the legacy API refuses it for good, the sync marks the link failed: re-consent.
    await simControl(t, 'fitbit').post('revoke', { userId: link.provider_user_id });
    expect((await syncDevice(t.ctx, link.id)).status).toBe('revoked');
    expect(await status(syncedPid)).toMatchObject({
      status: 'error',
      api: 'legacy',
      reconsentRequired: true,
    });
  });

  it('when it fails for good the card says re-consent; the consent request sends the Google link', async () => {
    const { pid, legacyUser } = await legacyLinked();
    await simControl(t, 'fitbit').post('revoke', { userId: legacyUser });
    const devices = (await a.as.Admin.get(`/api/participantDevices/${pid}/fitbit`)).json();
    expect(devices).toEqual([
      expect.objectContaining({ hasError: true, errorType: 'Authentication required' }),
    ]);
    expect(await status(pid)).toMatchObject({ status: 'error', api: 'legacy', reconsentRequired: true });
    expect(LINK_MESSAGES.reconsent).toContain('consent again');
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'fitbit.link.failed')
      .where('entity_id', '=', String(pid))
      .execute();
    expect(audit).toHaveLength(1);

    const req = await a.as.Admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
    expect(req.statusCode).toBe(200);
    const { authorizeUrl, callback } = await throughAuthorizePage(base, 'fitbit', req.json().link);
    expect(authorizeUrl.pathname).toBe('/sim/google-health/o/oauth2/v2/auth');
    const done = await t.client().post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await status(pid)).toMatchObject({
      status: 'authorized',
      api: 'google_health',
      reconsentRequired: false,
    });
    const link = await t.ctx.db
      .selectFrom('participant_devices')
      .select(['provider', 'legacy_user_id'])
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    // The same person: Google's identity names the legacy Fitbit user of the old link.
    expect(link).toEqual({ provider: 'google_health', legacy_user_id: legacyUser });
    const devicesNow = (await a.as.Admin.get(`/api/participantDevices/${pid}/fitbit`)).json();
    expect(devicesNow[0]).toMatchObject({ hasError: false, device: 'fitness tracker' });
  });

  it('a Google account of another Fitbit user cannot take over an authorized legacy link', async () => {
    const other = await newParticipant();
    const someoneElse = await newParticipant();
    await linkLegacyFitbit(t, a, other);
    // Another person with a Google account (and a legacy Fitbit id of their own).
    const reqR = await a.as.Admin.post(`/api/participantDevices/${someoneElse}/fitbit/consentRequest`);
    const r = await throughAuthorizePage(base, 'fitbit', reqR.json().link);
    expect(
      (
        await t.client().post('/api/fitbit-callback', {
          authCode: r.callback.searchParams.get('code'),
          participantId: r.callback.searchParams.get('state'),
        })
      ).statusCode,
    ).toBe(200);
    const googleUserOfR = (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('provider_user_id')
        .where('participant_id', '=', someoneElse)
        .executeTakeFirstOrThrow()
    ).provider_user_id!;
    // That person signs in on Google's page for the legacy-linked participant.
    const req = await a.as.Admin.post(`/api/participantDevices/${other}/fitbit/consentRequest`);
    const { callback } = await throughAuthorizePage(base, 'fitbit', req.json().link, {
      account: googleUserOfR,
    });
    const done = await t.client().post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toBe(LINK_MESSAGES.otherAccount);
    expect(await status(other)).toMatchObject({ status: 'authorized', api: 'legacy' });
  });
});
