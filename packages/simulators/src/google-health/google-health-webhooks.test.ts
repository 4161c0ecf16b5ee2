/*
 * Webhook subscribers of the Google Health simulator (google-health-api.md
 * §5), over real HTTP with a real endpoint: the service-account token, the
 * two-probe verification on create and update, FAILED_PRECONDITION when the
 * endpoint does not check authorization, CRUD, and signed batched
 * notifications sent only for users who granted the data type's scope.
 */
import { createVerify } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, control, type Json, link, type Sim, scopeOf, startSim } from './test-kit.js';

const SECRET = 'Bearer endpoint-secret-42';

describe('Google Health simulator: webhooks', { timeout: 30_000 }, () => {
  // Each test has its own simulator (its own subscribers and configuration) and its own endpoint.
  let sim: Sim;
  let endpoint: FastifyInstance;
  let endpointUrl = '';
  /** What the endpoint received, and whether it checks Authorization (a bad endpoint does not). */
  const received: Array<{ headers: Record<string, string>; raw: string }> = [];
  let checksAuth = true;
  let saToken = '';

  beforeEach(async () => {
    received.length = 0;
    checksAuth = true;
    sim = await startSim();
    endpoint = Fastify();
    endpoint.addContentTypeParser('application/json', { parseAs: 'string' }, (_r, body, done) =>
      done(null, body),
    );
    endpoint.post('/hook', async (request, reply) => {
      const raw = request.body as string;
      if (checksAuth && request.headers.authorization !== SECRET) return reply.status(401).send();
      if (JSON.parse(raw).type === 'verification') return reply.status(201).send();
      received.push({ headers: request.headers as Record<string, string>, raw });
      return reply.status(204).send();
    });
    await endpoint.listen({ port: 0, host: '127.0.0.1' });
    endpointUrl = `http://127.0.0.1:${(endpoint.server.address() as { port: number }).port}/hook`;
    // A service account's token: the JWT bearer grant with the cloud-platform scope.
    const claims = {
      iss: 'trialwear@project.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: 'https://oauth2.googleapis.com/token',
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 3600,
    };
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const res = await fetch(`${sim.base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc(claims)}.c2ln`,
      }).toString(),
    });
    const body = (await res.json()) as Json;
    expect(res.status).toBe(200);
    expect(body.token_type).toBe('Bearer');
    saToken = body.access_token;
  });
  afterEach(async () => {
    await sim.close();
    await endpoint.close();
  });

  const subscribers = (path = '', method = 'GET', body?: object, token = saToken) =>
    fetch(`${sim.base}/v4/projects/123456789012/subscribers${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));

  const create = (id: string, dataTypes = ['steps', 'sleep']) =>
    subscribers(`?subscriberId=${id}`, 'POST', {
      endpointUri: endpointUrl,
      subscriberConfigs: [{ dataTypes, subscriptionCreatePolicy: 'AUTOMATIC' }],
      endpointAuthorization: { secret: SECRET },
    });

  it('create verifies the endpoint with two probes and answers an Operation with the ACTIVE subscriber', async () => {
    const r = await create('trialwear-prod');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.devicesandservices.health.v4.Subscriber',
        name: 'projects/123456789012/subscribers/trialwear-prod',
        endpointUri: endpointUrl,
        endpointAuthorization: { secretSet: true },
        state: 'ACTIVE',
      },
    });
    expect(JSON.stringify(r.body)).not.toContain(SECRET);
    const list = await subscribers();
    expect(list.body.subscribers.map((s: Json) => s.name)).toEqual([
      'projects/123456789012/subscribers/trialwear-prod',
    ]);
    expect((await subscribers('/trialwear-prod')).body.state).toBe('ACTIVE');
  });

  it('an endpoint that answers without checking Authorization fails verification (FAILED_PRECONDITION)', async () => {
    checksAuth = false;
    const r = await create('careless-endpoint');
    checksAuth = true;
    expect(r.status).toBe(400);
    expect(r.body.error.status).toBe('FAILED_PRECONDITION');
    expect((await subscribers('/careless-endpoint')).status).toBe(404);
  });

  it('subscriber calls need the cloud-platform scope; ids are checked', async () => {
    const user = await link(sim, 'wh-user.n.m');
    expect((await subscribers('', 'GET', undefined, user.access_token)).status).toBe(403);
    expect((await subscribers('', 'GET', undefined, '')).status).toBe(401);
    expect((await create('X')).status).toBe(400);
  });

  it('notifications: one signed JSON array per subscriber, only for users who granted the scope', async () => {
    expect((await create('trialwear-prod')).status).toBe(200);
    const granted = await link(sim, 'wh-granted.n.m');
    const noSleep = await link(sim, 'wh-nosleep.n.m', [scopeOf('activity_and_fitness')]);
    const id = (t: string) => api(sim, t, '/v4/users/me/identity').then((r) => r.body.healthUserId as string);
    const [a, b] = [await id(granted.access_token), await id(noSleep.access_token)];
    received.length = 0;
    const r = await control(sim, 'notify', {
      events: [
        { userId: a, dataType: 'sleep', dates: ['2026-11-10'] },
        { userId: b, dataType: 'sleep', dates: ['2026-11-10'] },
        { userId: b, dataType: 'steps', dates: ['2026-11-09', '2026-11-10'] },
      ],
    });
    expect(r.deliveries.map((d: Json) => d.status)).toEqual([204]);
    expect(received).toHaveLength(1);
    const { headers, raw } = received[0]!;
    expect(headers.authorization).toBe(SECRET);
    const key = await (await fetch(`${sim.base}/_control/webhook-public-key`)).text();
    for (const h of ['google-health-api-signature', 'x-healthapi-signature'])
      expect(createVerify('sha256').update(raw).verify(key, headers[h]!, 'base64')).toBe(true);
    const batch = JSON.parse(raw);
    expect(batch.map((n: Json) => [n.data.healthUserId, n.data.dataType])).toEqual([
      [a, 'sleep'],
      [b, 'steps'],
    ]);
    expect(batch[0].data).toMatchObject({
      version: 'v4',
      clientProvidedSubscriptionName: 'trialwear-prod',
      operation: 'UPSERT',
      intervals: [
        {
          civilDateTimeInterval: { startTime: '2026-11-10T00:00:00' },
          civilIso8601TimeInterval: '2026-11-10/2026-11-11',
        },
      ],
    });
    expect(batch[1].data.intervals).toHaveLength(2);
    // The open questions: UPDATE instead of UPSERT, no Authorization, only the new signature header.
    await control(sim, 'config', {
      notificationOperation: 'UPDATE',
      notificationAuthorization: false,
      signatureHeader: 'GOOGLE-HEALTH-API-SIGNATURE',
    });
    checksAuth = false;
    await control(sim, 'notify', { userId: a, dataType: 'steps', date: '2026-11-11' });
    checksAuth = true;
    const last = received[received.length - 1]!;
    expect(last.headers.authorization).toBeUndefined();
    expect(last.headers['x-healthapi-signature']).toBeUndefined();
    expect(JSON.parse(last.raw)[0].data.operation).toBe('UPDATE');
  });

  it('update re-verifies; delete removes', async () => {
    expect((await create('trialwear-prod')).status).toBe(200);
    const patch = await subscribers('/trialwear-prod?updateMask=subscriber_configs', 'PATCH', {
      subscriberConfigs: [{ dataTypes: ['weight'], subscriptionCreatePolicy: 'AUTOMATIC' }],
    });
    expect(patch.status).toBe(200);
    expect(patch.body.response.subscriberConfigs[0].dataTypes).toEqual(['weight']);
    expect((await subscribers('/trialwear-prod?force=true', 'DELETE')).status).toBe(200);
    expect((await subscribers('/trialwear-prod')).status).toBe(404);
    expect(await subscribers()).toEqual({ status: 200, body: {} });
  });
});
