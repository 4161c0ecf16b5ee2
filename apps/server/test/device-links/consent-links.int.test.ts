/*
 * Consent links are single-use and expire: an old email cannot relink a
 * participant (to another provider account or at all), a participant whose
 * device is linked to one account cannot be moved to another by a consent
 * (staff revoke first), and an inbox cannot be flooded with requests.
 */
import { CONSENT_LINKS, LINK_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughAuthorizePage } from '../support/consent.js';
import { FIXTURE_PASSWORD, type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

describe('consent links', () => {
  let t: TestApp;
  let a: TeamFixture;
  let base: string;
  let trialId: number;
  const clock = testClock(new Date().toISOString());

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    base = t.ctx.config.publicUrl;
    a = await teamWithRoles(t, 'Consent A', { hiddenFields: [] });
    trialId = (await a.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Links' })).json()
      .trialId;
  });
  afterAll(() => t.close());

  /** The team's Admin, newly signed in (sessions idle out when the clock jumps). */
  async function signIn() {
    const { username } = await t.ctx.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', a.userIds.Admin)
      .executeTakeFirstOrThrow();
    const admin = t.client();
    await admin.login(username, FIXTURE_PASSWORD);
    return admin;
  }

  let n = 0;
  /** The test's start (the real time, whatever an earlier test moved the clock to), its Admin and participant. */
  const begin = async () => {
    clock.set(new Date().toISOString());
    const admin = await signIn();
    const newParticipant = async () =>
      (await admin.post('/api/trialParticipants', { trialId, email: `p${++n}@x.example` })).json()
        .participantId as number;
    return { admin, newParticipant };
  };

  const requestLink = async (admin: TestClient, pid: number) => {
    const res = await admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
    if (res.statusCode !== 200) throw new Error(res.body);
    const link = new URL(res.json().link);
    return { id: link.searchParams.get('id')!, t: link.searchParams.get('t')! };
  };
  const authorizeUrl = (link: { id: string; t: string }) =>
    fetch(`${base}/api/consent/fitbit/authorizeUrl?id=${link.id}&t=${encodeURIComponent(link.t)}`);

  /** The participant's browser: authorize page → Allow (optionally signing in as another account) → callback. */
  async function consentThrough(link: { id: string; t: string }, account?: string) {
    const consentLink = `${base}/PAFitbitConsentPage?id=${link.id}&t=${encodeURIComponent(link.t)}`;
    const { callback } = await throughAuthorizePage(base, 'fitbit', consentLink, { account });
    return t.client().post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
  }

  const linkRow = (pid: number) =>
    t.ctx.db
      .selectFrom('participant_devices')
      .selectAll()
      .where('participant_id', '=', pid)
      .executeTakeFirst();

  it('a link works once: after the device is linked, the same link is refused', async () => {
    const { admin, newParticipant } = await begin();
    const pid = await newParticipant();
    const link = await requestLink(admin, pid);
    expect((await consentThrough(link)).statusCode).toBe(200);
    const again = await authorizeUrl(link);
    expect(again.status).toBe(422);
    expect(((await again.json()) as { message: string }).message).toBe(LINK_MESSAGES.linkUsed);
  });

  it(`a link expires after ${CONSENT_LINKS.validDays} days`, async () => {
    const { admin, newParticipant } = await begin();
    const pid = await newParticipant();
    const link = await requestLink(admin, pid);
    clock.advance(CONSENT_LINKS.validDays * 86_400_000 - 60_000);
    expect((await authorizeUrl(link)).status).toBe(200);
    clock.advance(120_000);
    const late = await authorizeUrl(link);
    expect(late.status).toBe(422);
    expect(((await late.json()) as { message: string }).message).toBe(LINK_MESSAGES.linkExpired);
    expect(await linkRow(pid)).toBeUndefined();
  });

  it('a link made up for a participant is refused', async () => {
    const { newParticipant } = await begin();
    const pid = await newParticipant();
    const res = await authorizeUrl({ id: String(pid), t: 'x'.repeat(32) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe(LINK_MESSAGES.badLink);
  });

  it('the same person consenting again keeps the link; another account is refused until staff revoke', async () => {
    let { admin, newParticipant } = await begin();
    const pid = await newParticipant();
    expect((await consentThrough(await requestLink(admin, pid))).statusCode).toBe(200);
    const first = await linkRow(pid);
    expect(first?.provider_user_id).toBeTruthy();

    expect((await consentThrough(await requestLink(admin, pid))).statusCode).toBe(200);
    expect((await linkRow(pid))?.provider_user_id).toBe(first?.provider_user_id);

    const other = await consentThrough(await requestLink(admin, pid), 'ZZZZZZ');
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(LINK_MESSAGES.otherAccount);
    expect(await linkRow(pid)).toMatchObject({
      provider_user_id: first?.provider_user_id,
      authorization_status: 'authorized',
    });
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('action', '=', 'fitbit.link.refused_other_account')
      .where('entity_id', '=', String(pid))
      .execute();
    expect(audit).toEqual([{ action: 'fitbit.link.refused_other_account', entity_id: String(pid) }]);

    // After staff revoke (and an hour, for the request limit), the participant may link the other account.
    clock.advance(3_600_000 + 1000);
    admin = await signIn();
    expect(
      (
        await admin.request('GET', `/api/revokeAccessToken/${pid}`, undefined, {
          headers: { 'x-csrf-token': await admin.csrfToken() },
        })
      ).statusCode,
    ).toBe(200);
    expect((await consentThrough(await requestLink(admin, pid), 'ZZZZZZ')).statusCode).toBe(200);
    expect((await linkRow(pid))?.provider_user_id).toBe('ZZZZZZ');
  });

  it(`at most ${CONSENT_LINKS.maxRequestsPerHour} consent requests an hour per participant and brand`, async () => {
    let { admin, newParticipant } = await begin();
    const pid = await newParticipant();
    const other = await newParticipant();
    for (let i = 0; i < CONSENT_LINKS.maxRequestsPerHour; i++) await requestLink(admin, pid);
    const refused = await admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(LINK_MESSAGES.tooManyRequests);
    // Another brand and another participant are counted apart.
    expect((await admin.post(`/api/participantDevices/${pid}/omron/consentRequest`)).statusCode).toBe(200);
    expect((await admin.post(`/api/participantDevices/${other}/fitbit/consentRequest`)).statusCode).toBe(200);
    clock.advance(3_600_000 + 1000);
    admin = await signIn();
    expect((await admin.post(`/api/participantDevices/${pid}/fitbit/consentRequest`)).statusCode).toBe(200);
  });
});
