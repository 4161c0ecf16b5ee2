/*
 * Dexcom API v3 simulator (providers.md §3): OAuth at /v2/oauth2/login and
 * /v2/oauth2/token (2-hour access tokens, rotating single-use refresh
 * tokens, Keycloak-style fields, invalid_grant errors), and the v3 data
 * endpoints with startDate/endDate in UTC without offset and the 30-day
 * window rule. No public revoke endpoint: the control API revokes.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SimClock } from '../clock.js';
import { accountFromSeed, personSeed, rfcError } from '../oauth/common.js';
import { CallCounter, registerControlRoutes } from '../oauth/control-routes.js';
import { type OAuthProvider, registerOAuthRoutes, rfcAuthorizeErrors } from '../oauth/oauth-routes.js';
import { type ConsentGrant, type OAuthClient, OAuthStore } from '../oauth/oauth-store.js';
import {
  dexcomCalibrations,
  dexcomDevices,
  dexcomEgvs,
  dexcomEvents,
  dexcomUserHash,
} from './dexcom-data.js';

export interface DexcomSimulatorOptions {
  clients: OAuthClient[];
  /** Mount the control API (/_control/...): development and tests only. */
  control?: boolean;
  clock?: SimClock;
  /** Receives, once mounted, the in-process consent: for seeding demo links. */
  onGrant?: (grant: ConsentGrant) => void;
  hourlyLimit?: number;
}

const BRAND = { name: 'Dexcom', color: '#58a618' };
const MAX_WINDOW_MS = 30 * 86_400_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/**
 * Keycloak-style OAuth (providers.md §3.2): sandbox accounts, offline_access
 * only, invalid_grant for every bad grant, no revoke endpoint.
 */
const DEXCOM_OAUTH: OAuthProvider = {
  brand: BRAND,
  authorize: {
    path: '/v2/oauth2/login',
    errors: rfcAuthorizeErrors('invalid redirect_uri'),
    soleRedirectUriIsDefault: false,
    account: (q, client) => `SandboxUser-${accountFromSeed(`${client.clientId}:${personSeed(q)}`, 8)}`,
    defaultScope: 'offline_access',
    scopes: (scope) => ({ shown: scope.split(' '), granted: scope }),
    invalidDecision: 'invalid_request',
  },
  token: {
    path: '/v2/oauth2/token',
    clientAuth: 'secret',
    invalidClient: 'Invalid client or Invalid client credentials',
    unsupportedGrantType: 'Invalid grant_type',
    body: (t) => ({
      access_token: t.accessToken,
      expires_in: t.expiresIn,
      token_type: 'Bearer',
      refresh_token: t.refreshToken,
      refresh_expires_in: 0,
      'not-before-policy': 0,
      session_state: accountFromSeed(t.accessToken, 32),
    }),
  },
  errorReply: (f) => {
    if (f.kind === 'invalid_client') return { status: 401, body: rfcError('invalid_client', f.message) };
    const error = f.kind === 'invalid_request' ? 'invalid_request' : 'invalid_grant';
    return { status: 400, body: rfcError(error, f.kind === 'conflict' ? 'Token is not active' : f.message) };
  },
};

export async function dexcomSimulator(app: FastifyInstance, opts: DexcomSimulatorOptions) {
  const clock = opts.clock ?? new SimClock();
  const store = new OAuthStore(clock, 7200, 'dexcom');
  const limit = opts.hourlyLimit ?? 60_000;
  let usage = { window: -1, count: 0 };
  let failNext = { count: 0, status: 500 };
  await app.register(formbody);

  const calls = new CallCounter(store);
  if (opts.control === true) app.addHook('onRequest', calls.hook);
  registerOAuthRoutes(app, DEXCOM_OAUTH, { store, clients: opts.clients, clock });
  opts.onGrant?.((clientId, userId, scope) =>
    store.grant(clientId, userId, scope ?? DEXCOM_OAUTH.authorize.defaultScope),
  );

  async function authorized(request: FastifyRequest, reply: FastifyReply) {
    if (failNext.count > 0) {
      failNext.count -= 1;
      if (failNext.status === 429) reply.header('Retry-After', '60');
      reply.status(failNext.status).send(rfcError('server_error', 'Simulated failure'));
      return null;
    }
    const hour = Math.floor(clock.now().getTime() / 3_600_000);
    if (usage.window !== hour) usage = { window: hour, count: 0 };
    usage.count += 1;
    if (usage.count > limit) {
      reply.header('Retry-After', String(Math.ceil(((hour + 1) * 3_600_000 - clock.now().getTime()) / 1000)));
      reply.status(429).send(rfcError('too_many_requests', 'Rate limit exceeded'));
      return null;
    }
    const h = request.headers.authorization ?? '';
    const check = store.checkAccess(h.startsWith('Bearer ') ? h.slice(7) : '');
    if (!check.ok) {
      reply.status(401).send(rfcError('unauthorized', 'Unauthorized'));
      return null;
    }
    return check.grant;
  }

  /** startDate/endDate: UTC without offset, start before end, at most 30 days. */
  function window(request: FastifyRequest, reply: FastifyReply): [number, number] | null {
    const q = request.query as Record<string, string | undefined>;
    if (!q.startDate || !q.endDate || !DATE_RE.test(q.startDate) || !DATE_RE.test(q.endDate)) {
      reply
        .status(400)
        .send(rfcError('invalid_request', 'startDate and endDate are required, as YYYY-MM-DDThh:mm:ss'));
      return null;
    }
    const from = Date.parse(`${q.startDate}Z`);
    const to = Date.parse(`${q.endDate}Z`);
    if (!(from < to)) {
      reply.status(400).send(rfcError('invalid_request', 'startDate must be before endDate'));
      return null;
    }
    if (to - from > MAX_WINDOW_MS) {
      reply.status(400).send(rfcError('invalid_request', 'The date range cannot exceed 30 days'));
      return null;
    }
    return [from, Math.min(to, clock.now().getTime())];
  }

  const envelope = (recordType: string, userId: string, records: unknown[]) => ({
    recordType,
    recordVersion: '3.0',
    userId: dexcomUserHash(userId),
    records,
  });

  app.get('/v3/users/self/egvs', async (request, reply) => {
    const grant = await authorized(request, reply);
    if (!grant) return reply;
    const w = window(request, reply);
    if (!w) return reply;
    return envelope('egv', grant.userId, dexcomEgvs(grant.userId, w[0], w[1]));
  });
  const RECORDS = {
    calibrations: ['calibration', dexcomCalibrations],
    events: ['event', dexcomEvents],
    alerts: ['alert', () => []], // the simulator raises no alerts
  } as const;
  for (const [path, [type, records]] of Object.entries(RECORDS)) {
    app.get(`/v3/users/self/${path}`, async (request, reply) => {
      const grant = await authorized(request, reply);
      if (!grant) return reply;
      const w = window(request, reply);
      if (!w) return reply;
      return envelope(type, grant.userId, records(grant.userId, w[0], w[1]));
    });
  }
  app.get('/v3/users/self/devices', async (request, reply) => {
    const grant = await authorized(request, reply);
    if (!grant) return reply;
    return envelope('device', grant.userId, dexcomDevices(grant.userId, clock.now().getTime()));
  });
  app.get('/v3/users/self/dataRange', async (request, reply) => {
    const grant = await authorized(request, reply);
    if (!grant) return reply;
    const now = clock.now().getTime();
    const start = now - 90 * 86_400_000;
    const point = (t: number) => ({
      systemTime: new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      displayTime: new Date(t).toISOString().slice(0, 19),
    });
    // Each block spans that record type's first and last record of the last 90 days, or is null.
    const span = (records: Array<{ systemTime: string; displayTime: string }>) =>
      records.length
        ? {
            start: { systemTime: records[0]!.systemTime, displayTime: records[0]!.displayTime },
            end: { systemTime: records.at(-1)!.systemTime, displayTime: records.at(-1)!.displayTime },
          }
        : null;
    return {
      recordType: 'dataRange',
      recordVersion: '3.0',
      userId: dexcomUserHash(grant.userId),
      egvs: { start: point(start), end: point(now - 300_000) },
      calibrations: span(dexcomCalibrations(grant.userId, start, now)),
      events: span(dexcomEvents(grant.userId, start, now)),
    };
  });

  registerControlRoutes(app, {
    enabled: opts.control === true,
    extra: (a) => {
      a.post('/_control/exhaust-rate-limit', async () => {
        usage = { window: Math.floor(clock.now().getTime() / 3_600_000), count: limit };
        return { ok: true };
      });
    },
    store,
    clock,
    calls,
    failNext: (next) => {
      failNext = next;
    },
  });
}
