/*
 * A participant linked to a provider through the real consent flow (consent
 * request → the simulator's authorize page → Allow → callback), and the
 * simulator's control API, for the device-data tests.
 */
import type { Provider } from '@trialwear/contract';
import { accountFromSeed, fitbitUserId, fitbitUserTimezone } from '@trialwear/simulators';
import { authorizeUrl, completeConsent } from '../../src/features/device-links/consent-flow.js';
import { throughAuthorizePage } from './consent.js';
import type { TeamFixture } from './fixtures.js';
import type { TestApp } from './test-app.js';

/** Link the participant to the provider; answers the simulator's user id of the participant. */
export async function linkParticipant(t: TestApp, team: TeamFixture, pid: number, provider: Provider) {
  const base = t.ctx.config.publicUrl;
  const req = await team.as.Admin.post(`/api/participantDevices/${pid}/${provider}/consentRequest`);
  const { callback } = await throughAuthorizePage(base, provider, req.json().link);
  const state = callback.searchParams.get('state')!;
  const body =
    provider === 'fitbit'
      ? { authCode: callback.searchParams.get('code'), participantId: state }
      : { authCode: callback.searchParams.get('code'), participantData: state };
  const done = await t.client().post(`/api/${provider}-callback`, body);
  if (done.statusCode !== 200) throw new Error(`callback answered ${done.statusCode}: ${done.body}`);
  if (provider === 'dexcom') {
    // Dexcom names no user to the client: the simulator's sandbox account of this participant.
    const clientId = t.ctx.providers.dexcom.settings.clientId;
    return `SandboxUser-${accountFromSeed(`${clientId}:${pid}`, 8)}`;
  }
  const row = await t.ctx.db
    .selectFrom('participant_devices')
    .select('provider_user_id')
    .where('participant_id', '=', pid)
    .where('provider', 'in', provider === 'fitbit' ? ['fitbit', 'google_health'] : [provider])
    .executeTakeFirstOrThrow();
  return row.provider_user_id!;
}

/**
 * The participant's provider token rows, as a query: execute it (every row) or take its first row.
 */
export function tokenRowsOf(t: TestApp, pid: number) {
  return t.ctx.db
    .selectFrom('provider_tokens as k')
    .innerJoin('participant_devices as d', 'd.id', 'k.participant_device_id')
    .selectAll('k')
    .where('d.participant_id', '=', pid);
}

/**
 * A legacy Fitbit Web API link in an app that links new Fitbits through the
 * Google Health API: the link a participant made before the deployment
 * switched, made by the same service calls with the legacy client.
 */
export async function linkLegacyFitbit(t: TestApp, team: TeamFixture, pid: number) {
  const legacy = t.ctx.providers.links.fitbit;
  const req = await team.as.Admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
  const link = new URL(req.json().link);
  const { url } = await authorizeUrl(t.ctx, legacy, pid, link.searchParams.get('t')!);
  const { callback } = await throughAuthorizePage(t.ctx.config.publicUrl, 'fitbit', link, {
    authorizeUrl: url,
  });
  await completeConsent(
    t.ctx,
    legacy,
    callback.searchParams.get('code')!,
    callback.searchParams.get('state')!,
    '127.0.0.1',
  );
  return t.ctx.db
    .selectFrom('participant_devices')
    .select(['id', 'provider', 'provider_user_id'])
    .where('participant_id', '=', pid)
    .executeTakeFirstOrThrow();
}

/** The simulator's control API (mounted in test configurations). */
export function simControl(t: TestApp, provider: Provider | 'google-health') {
  const url = (path: string) => `${t.ctx.config.publicUrl}/sim/${provider}/_control/${path}`;
  const post = async (path: string, body: object = {}) => {
    const res = await fetch(url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return res.json();
  };
  return {
    post,
    expire: (userId: string) => post('expire-token', { userId }),
    failNext: (status: number, count = 1) => post('fail-next', { status, count }),
    clock: (now: string) => post('clock', { now }),
    resetCalls: () => post('calls/reset'),
    calls: async (userId: string) =>
      (
        (await (await fetch(`${url('calls')}?userId=${encodeURIComponent(userId)}`)).json()) as {
          calls: number;
        }
      ).calls,
  };
}

/**
 * A trial of the team that every role of the fixture sees (Viewer and User as trial users), with
 * participants; a team's trial numbers are unique, so a second trial of the team needs its own.
 */
export async function trialWithParticipants(
  team: TeamFixture,
  name: string,
  emails: string[],
  trialNumber = '1',
) {
  const created = await team.as.Admin.post('/api/userTrials', { trialNumber, trialName: name });
  if (created.statusCode !== 200) throw new Error(`trial not created: ${created.statusCode} ${created.body}`);
  const trialId = created.json().trialId as number;
  for (const u of (await team.as.Admin.get(`/api/teamUsers/${trialId}`)).json() as Array<{
    role: string;
    email: string;
  }>)
    if (u.role === 'Viewer' || u.role === 'User')
      await team.as.Admin.post('/api/trialUsers', { userEmail: u.email, trialId });
  const ids: number[] = [];
  for (const email of emails)
    ids.push((await team.as.Admin.post('/api/trialParticipants', { trialId, email })).json().participantId);
  return { trialId, ids };
}

/**
 * A new participant of the trial whose simulated Fitbit user lives in `tz` (the simulator derives
 * the user, and so the zone, from the consent's client and participant id): for tests of a zone's
 * clock changes. At most 80 participants are made looking for one.
 */
export async function participantInZone(
  t: TestApp,
  team: TeamFixture,
  trialId: number,
  tz: string,
  emailPrefix: string,
): Promise<number> {
  const clientId = t.ctx.providers.links.fitbit.settings.clientId;
  for (let i = 0; i < 80; i++) {
    const id = (
      await team.as.Admin.post('/api/trialParticipants', { trialId, email: `${emailPrefix}${i}@x.example` })
    ).json().participantId as number;
    if (fitbitUserTimezone(fitbitUserId(`${clientId}:${id}`)).tz === tz) return id;
  }
  throw new Error(`no participant in ${tz} among 80`);
}
