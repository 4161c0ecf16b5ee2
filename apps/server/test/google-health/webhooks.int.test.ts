/*
 * Google Health notifications (google-health-api.md §5): the subscriber
 * endpoint's verification handshake (201 with the registered secret, 401
 * without), the notifications' authenticity (the secret in Authorization,
 * or an ECDSA P-256 signature over the raw body when a public key is
 * configured; a signature that does not verify is refused), and the
 * incremental sync a notification schedules: the notified data type's
 * cursors moved back to the interval's first day, one device-sync job.
 */
import { createSign, generateKeyPairSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceSync } from '../../src/jobs/device-sync/job.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SECRET = 'Bearer 4n-endpoint-secret';
const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const sign = (body: string) => createSign('sha256').update(body).sign(keys.privateKey).toString('base64');

describe('Google Health webhooks', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${t.ctx.config.publicUrl}/webhooks/google-health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  // pg-boss's tables belong to the application role that installed them.
  const queued = async (deviceId: number) =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = 'device-sync' AND data->>'deviceId' = ${String(deviceId)} AND state = 'created'`.execute(
        t.ctx.db,
      )
    ).rows[0]!.n;
  const cursor = async (deviceId: number, metric: string) =>
    (
      await t.ctx.db
        .selectFrom('device_sync_cursors')
        .select('cursor_date')
        .where('participant_device_id', '=', deviceId)
        .where('metric_key', '=', metric)
        .executeTakeFirst()
    )?.cursor_date ?? null;

  beforeAll(async () => {
    t = await createTestApp({
      listen: true,
      withQueue: true,
      env: {
        FITBIT_API: 'google_health',
        GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET,
        GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
    });
    await registerJobQueues(t.ctx.boss!, [deviceSync]);
    a = await teamWithRoles(t, 'Hooks', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', ['steps', 'weight']);
    ({ trialId } = await trialWithParticipants(a, 'Hooks', []));
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** A participant of the test's own, linked through Google and synced once. */
  const syncedDevice = async () => {
    participants += 1;
    const pid = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `hook${participants}@x.example` })
    ).json().participantId as number;
    const healthUserId = await linkParticipant(t, a, pid, 'fitbit');
    const deviceId = (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow()
    ).id;
    expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
    // The callback queued the link's first sync (synced just above): what the webhooks queue is counted from none.
    await sql`DELETE FROM pgboss.job
      WHERE name = 'device-sync' AND data->>'deviceId' = ${String(deviceId)}`.execute(t.ctx.db);
    return { deviceId, healthUserId };
  };

  it('verification handshake: 201 with the registered secret, 401 without it or with another', async () => {
    const body = JSON.stringify({ type: 'verification' });
    expect((await post(body, { authorization: SECRET })).status).toBe(201);
    expect((await post(body)).status).toBe(401);
    expect((await post(body, { authorization: 'Bearer guess' })).status).toBe(401);
  });

  it('a notification with the secret moves the data type’s cursors back and queues one sync', async () => {
    const { deviceId, healthUserId } = await syncedDevice();
    const stepsBefore = (await cursor(deviceId, 'steps'))!;
    const weightBefore = await cursor(deviceId, 'weight');
    const from = new Date(Date.parse(`${stepsBefore}T00:00:00Z`) - 5 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.parse(`${from}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const notification = (user: string, dataType = 'steps') =>
      JSON.stringify([
        {
          data: {
            version: 'v4',
            healthUserId: user,
            operation: 'UPSERT',
            dataType,
            intervals: [{ civilIso8601TimeInterval: `${from}/${to}` }],
          },
        },
      ]);
    expect(await queued(deviceId)).toBe(0);
    const res = await post(notification(healthUserId), { authorization: SECRET });
    expect(res.status).toBe(200);
    expect(await cursor(deviceId, 'steps')).toBe(from);
    expect(await cursor(deviceId, 'weight')).toBe(weightBefore); // another data type: untouched
    expect(await queued(deviceId)).toBe(1);
    // A burst for the same device is still one waiting job (the device's singleton).
    expect((await post(notification(healthUserId, 'weight'), { authorization: SECRET })).status).toBe(200);
    expect(await cursor(deviceId, 'weight')).toBe(from);
    expect(await queued(deviceId)).toBe(1);
    // Someone the portal does not know: accepted (Google must not disable the endpoint), nothing queued.
    expect((await post(notification('123456789'), { authorization: SECRET })).status).toBe(200);
    expect(await queued(deviceId)).toBe(1);
  });

  it('authenticity: a valid signature alone is enough; a bad one is refused even with the secret', async () => {
    const { healthUserId } = await syncedDevice();
    const body = JSON.stringify([
      { data: { healthUserId, dataType: 'sleep', operation: 'UPSERT', intervals: [] } },
    ]);
    expect((await post(body, { 'google-health-api-signature': sign(body) })).status).toBe(200);
    expect((await post(body, { 'x-healthapi-signature': sign(body) })).status).toBe(200);
    const tampered = body.replace('sleep', 'steps');
    expect(
      (await post(tampered, { 'google-health-api-signature': sign(body), authorization: SECRET })).status,
    ).toBe(403);
    expect((await post(body)).status).toBe(403);
    expect((await post('not json', { authorization: SECRET })).status).toBe(400);
  });

  it('end to end with the Google Health simulator: its subscriber verifies our endpoint and delivers signed notifications', async () => {
    const { deviceId, healthUserId } = await syncedDevice();
    const sim = `${t.ctx.config.publicUrl}/sim/google-health`;
    // A service account's token (cloud-platform): subscribers are project resources, not a user's.
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const token = await fetch(`${sim}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc({
          iss: 'trialwear@project.iam.gserviceaccount.com',
          scope: 'https://www.googleapis.com/auth/cloud-platform',
          aud: 'https://oauth2.googleapis.com/token',
          iat: now,
          exp: now + 3600,
        })}.c2ln`,
      }).toString(),
    });
    const saToken = ((await token.json()) as { access_token: string }).access_token;
    // The simulator signs with its own key (Google has published none): this deployment is given it.
    const config = t.ctx.config as { GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY?: string };
    const ownKey = config.GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY;
    config.GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY = await (
      await fetch(`${sim}/_control/webhook-public-key`)
    ).text();
    try {
      const created = await fetch(
        `${sim}/v4/projects/123456789012/subscribers?subscriberId=trialwear-portal`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${saToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            endpointUri: `${t.ctx.config.publicUrl}/webhooks/google-health`,
            subscriberConfigs: [{ dataTypes: ['steps', 'weight'], subscriptionCreatePolicy: 'AUTOMATIC' }],
            endpointAuthorization: { secret: SECRET },
          }),
        },
      );
      // Both verification probes passed (with the secret: 201; without: 401), or creation fails.
      expect(created.status, await created.clone().text()).toBe(200);
      expect(JSON.stringify(await created.json())).toContain('ACTIVE');
      const weightBefore = (await cursor(deviceId, 'weight'))!;
      const date = new Date(Date.parse(`${weightBefore}T00:00:00Z`) - 9 * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const sent = await fetch(`${sim}/_control/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ events: [{ userId: healthUserId, dataType: 'weight', dates: [date] }] }),
      });
      const { deliveries } = (await sent.json()) as { deliveries: Array<{ status: number }> };
      expect(deliveries.map((d) => d.status)).toEqual([200]);
      expect(await cursor(deviceId, 'weight')).toBe(date);
    } finally {
      config.GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY = ownKey;
    }
  });
});
