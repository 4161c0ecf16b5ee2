/*
 * Omron partner API simulator (providers.md §2): IdentityServer-style OAuth
 * (/connect/authorize, /connect/token with client credentials in the body,
 * id_token whose sub is the Omron user id, 1-hour access tokens, rotating
 * refresh tokens, /connect/revocation answering 200 with no body) and
 * POST /api/measurement with since / type / limit / sortOrder.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SimClock } from '../clock.js';
import { accountFromSeed, idToken, personSeed, rfcError } from '../oauth/common.js';
import { CallCounter, registerControlRoutes } from '../oauth/control-routes.js';
import { type OAuthProvider, registerOAuthRoutes, rfcAuthorizeErrors } from '../oauth/oauth-routes.js';
import { type ConsentGrant, type OAuthClient, OAuthStore } from '../oauth/oauth-store.js';
import { omronDay } from './omron-data.js';

export interface OmronSimulatorOptions {
  clients: OAuthClient[];
  /** Mount the control API (/_control/...): development and tests only. */
  control?: boolean;
  clock?: SimClock;
  /** Receives, once mounted, the in-process consent: for seeding demo links. */
  onGrant?: (grant: ConsentGrant) => void;
  accessTokenSeconds?: number;
}

const BRAND = { name: 'Omron', color: '#005eb8' };
const DAY_MS = 86_400_000;

/**
 * IdentityServer-style OAuth (providers.md §2.3): credentials in the body,
 * RFC 6749 errors, id_token on the code exchange, silent revocation.
 */
const OMRON_OAUTH: OAuthProvider = {
  brand: BRAND,
  authorize: {
    path: '/connect/authorize',
    errors: rfcAuthorizeErrors('invalid_request: redirect_uri is not registered'),
    soleRedirectUriIsDefault: false,
    account: (q, client) => accountFromSeed(`${client.clientId}:${personSeed(q)}`, 32),
    defaultScope: '',
    scopes: (scope) => ({ shown: scope.split(' ').filter(Boolean), granted: scope }),
    invalidDecision: 'invalid_request',
  },
  token: {
    path: '/connect/token',
    clientAuth: 'secret',
    invalidClient: 'Client authentication failed',
    unsupportedGrantType: 'unsupported grant_type',
    // The id_token (sub = the Omron user) comes with the code exchange only, not with a refresh.
    body: (t, { grantType, client, nowMs }) => ({
      ...(grantType === 'authorization_code' ? { id_token: idToken(t.userId, client.clientId, nowMs) } : {}),
      access_token: t.accessToken,
      expires_in: t.expiresIn,
      token_type: 'Bearer',
      refresh_token: t.refreshToken,
    }),
  },
  revoke: { path: '/connect/revocation', silent: true },
  errorReply: (f) =>
    f.kind === 'conflict'
      ? { status: 409, body: rfcError('invalid_grant', f.message) }
      : { status: 400, body: rfcError(f.kind, f.message) },
};

export async function omronSimulator(app: FastifyInstance, opts: OmronSimulatorOptions) {
  const clock = opts.clock ?? new SimClock();
  const store = new OAuthStore(clock, opts.accessTokenSeconds ?? 3600, 'omron');
  let failNext = { count: 0, status: 500 };
  await app.register(formbody);

  const calls = new CallCounter(store);
  if (opts.control === true) app.addHook('onRequest', calls.hook);
  registerOAuthRoutes(app, OMRON_OAUTH, { store, clients: opts.clients, clock });
  opts.onGrant?.((clientId, userId, scope) =>
    store.grant(clientId, userId, scope ?? 'openid offline_access bloodpressure weight activity'),
  );

  function bearer(request: FastifyRequest) {
    const h = request.headers.authorization ?? '';
    return store.checkAccess(h.startsWith('Bearer ') ? h.slice(7) : '');
  }

  app.post('/api/measurement', async (request, reply) => {
    if (failNext.count > 0) {
      failNext.count -= 1;
      // Omron publishes no limit (providers.md §2.6); an injected 429 carries a Retry-After like the others.
      if (failNext.status === 429) reply.header('Retry-After', '60');
      return reply
        .status(failNext.status)
        .send({ status: 1, reason: 'Simulated failure', errorCode: failNext.status });
    }
    const check = bearer(request);
    if (!check.ok)
      return reply.status(401).send({ status: 401, reason: 'Unauthorized', errorCode: check.reason });
    const b = (request.body ?? {}) as Record<string, string>;
    if (!b.since || !/^\d{4}-\d{2}-\d{2}/.test(b.since)) {
      return { status: 1, reason: 'since is required (yyyy-MM-dd)', errorCode: 'InvalidParameter' };
    }
    const type = b.type as 'bloodpressure' | 'weight' | 'activity' | undefined;
    const limit = b.limit ? Math.max(1, Math.min(1000, Number(b.limit) || 100)) : 100;
    const desc = b.sortOrder === 'desc';
    const since = Date.parse(b.since.length === 10 ? `${b.since}T00:00:00Z` : b.since);
    const now = clock.now().getTime();
    const bp: ReturnType<typeof omronDay>['bloodPressure'] = [];
    const weight: ReturnType<typeof omronDay>['weight'] = [];
    for (let t = since - DAY_MS; t <= now + DAY_MS; t += DAY_MS) {
      const day = omronDay(check.grant.userId, new Date(t).toISOString().slice(0, 10));
      bp.push(...day.bloodPressure);
      weight.push(...day.weight);
    }
    // `since` is compared with the UTC dateTime; nothing from the future.
    const keep = <T extends { dateTime: string }>(xs: T[]) =>
      xs
        .filter((x) => Date.parse(x.dateTime) >= since && Date.parse(x.dateTime) <= now)
        .sort((x, y) => (desc ? -1 : 1) * (Date.parse(x.dateTime) - Date.parse(y.dateTime)));
    const lists = {
      ...(type === undefined || type === 'bloodpressure' ? { bloodPressure: keep(bp) } : {}),
      ...(type === undefined || type === 'weight' ? { weight: keep(weight) } : {}),
    };
    let truncated = false;
    const result: Record<string, unknown> = {};
    let count = 0;
    for (const [k, v] of Object.entries(lists)) {
      truncated ||= v.length > limit;
      result[k] = v.slice(0, limit);
      count += Math.min(v.length, limit);
    }
    return { status: 0, result: { truncated, measurementCount: count, nextPaginationKey: null, ...result } };
  });

  registerControlRoutes(app, {
    enabled: opts.control === true,
    store,
    clock,
    calls,
    failNext: (next) => {
      failNext = next;
    },
  });
}
