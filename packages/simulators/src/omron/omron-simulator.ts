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
import { authorizeErrorPage, authorizePage } from '../oauth/authorize-page.js';
import { accountFromSeed, clientFromRequest, idToken, rfcError } from '../oauth/common.js';
import { registerControlRoutes } from '../oauth/control-routes.js';
import { type OAuthClient, OAuthStore } from '../oauth/oauth-store.js';
import { omronDay } from './omron-data.js';

export interface OmronSimulatorOptions {
  clients: OAuthClient[];
  clock?: SimClock;
  accessTokenSeconds?: number;
}

const BRAND = { name: 'Omron', color: '#005eb8' };
const DAY_MS = 86_400_000;

export async function omronSimulator(app: FastifyInstance, opts: OmronSimulatorOptions) {
  const clock = opts.clock ?? new SimClock();
  const store = new OAuthStore(clock, opts.accessTokenSeconds ?? 3600, 'omron');
  const clients = new Map(opts.clients.map((c) => [c.clientId, c]));
  let failNext = { count: 0, status: 500 };
  await app.register(formbody);

  app.get('/connect/authorize', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const client = clients.get(q.client_id ?? '');
    const fail = (m: string) => reply.type('text/html').send(authorizeErrorPage(m, BRAND));
    if (!client) return fail('invalid_client');
    if (q.response_type !== 'code') return fail('unsupported_response_type');
    if (!q.redirect_uri || !client.redirectUris.includes(q.redirect_uri))
      return fail('invalid_request: redirect_uri is not registered');
    const account = accountFromSeed(`${client.clientId}:${q.state ?? 'anonymous'}`, 32);
    const hidden: Record<string, string> = {
      client_id: client.clientId,
      redirect_uri: q.redirect_uri,
      scope: q.scope ?? '',
      account,
    };
    if (q.state) hidden.state = q.state;
    const scopes = (q.scope ?? '').split(' ').filter(Boolean);
    return reply
      .type('text/html')
      .send(authorizePage({ action: request.url.split('?')[0]!, hidden, scopes, account, brand: BRAND }));
  });

  app.post('/connect/authorize', async (request, reply) => {
    const b = request.body as Record<string, string>;
    const client = clients.get(b.client_id ?? '');
    if (!client || !client.redirectUris.includes(b.redirect_uri ?? ''))
      return reply.type('text/html').send(authorizeErrorPage('invalid_request', BRAND));
    const target = new URL(b.redirect_uri!);
    if (b.decision === 'allow') {
      target.searchParams.set(
        'code',
        store.issueCode({
          clientId: client.clientId,
          userId: b.account!,
          scope: b.scope ?? '',
          redirectUri: b.redirect_uri!,
        }),
      );
    } else {
      target.searchParams.set('error', 'access_denied');
    }
    if (b.state) target.searchParams.set('state', b.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/connect/token', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string>;
    const client = clientFromRequest(request, clients);
    if (!client) return reply.status(400).send(rfcError('invalid_client', 'Client authentication failed'));
    const result =
      b.grant_type === 'authorization_code'
        ? store.exchangeCode({ code: b.code ?? '', clientId: client.clientId, redirectUri: b.redirect_uri })
        : b.grant_type === 'refresh_token'
          ? store.refreshTokens({ refreshToken: b.refresh_token ?? '', clientId: client.clientId })
          : ({ kind: 'invalid_request', message: 'unsupported grant_type' } as const);
    if ('kind' in result) {
      return reply
        .status(result.kind === 'conflict' ? 409 : 400)
        .send(rfcError(result.kind === 'conflict' ? 'invalid_grant' : result.kind, result.message));
    }
    return {
      ...(b.grant_type === 'authorization_code'
        ? { id_token: idToken(result.userId, client.clientId, clock.now().getTime()) }
        : {}),
      access_token: result.accessToken,
      expires_in: result.expiresIn,
      token_type: 'Bearer',
      refresh_token: result.refreshToken,
    };
  });

  app.post('/connect/revocation', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string>;
    if (clientFromRequest(request, clients) && b.token) store.revoke(b.token);
    return reply.status(200).send(); // 200 with no body, whatever the outcome (providers.md §2.3)
  });

  function bearer(request: FastifyRequest) {
    const h = request.headers.authorization ?? '';
    return store.checkAccess(h.startsWith('Bearer ') ? h.slice(7) : '');
  }

  app.post('/api/measurement', async (request, reply) => {
    if (failNext.count > 0) {
      failNext.count -= 1;
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
    store,
    clock,
    failNext: (next) => {
      failNext = next;
    },
  });
}
