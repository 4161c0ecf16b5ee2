/*
 * Fitbit Web API simulator (providers.md §1): OAuth 2.0 authorization code
 * with PKCE, 8-hour access tokens, rotating single-use refresh tokens (409
 * on concurrent refresh), revoke, Fitbit's error bodies, the 150/hour rate
 * limit with its headers, and the devices and profile endpoints. Mount it
 * under a prefix (the portal uses /sim/fitbit).
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SimClock } from '../clock.js';
import { authorizeErrorPage, authorizePage } from '../oauth/authorize-page.js';
import { registerControlRoutes } from '../oauth/control-routes.js';
import { type OAuthClient, OAuthStore } from '../oauth/oauth-store.js';
import { fitbitDevices, fitbitProfile, fitbitUserId } from './fitbit-data.js';
import { registerFitbitDataRoutes } from './fitbit-data-routes.js';

export const FITBIT_SCOPES = [
  'activity',
  'cardio_fitness',
  'heartrate',
  'nutrition',
  'oxygen_saturation',
  'profile',
  'respiratory_rate',
  'settings',
  'sleep',
  'temperature',
  'weight',
] as const;

const HOURLY_LIMIT = 150;
const DOCS =
  'Visit https://dev.fitbit.com/docs/oauth2 for more information on the Fitbit Web API authorization process.';

export interface FitbitSimulatorOptions {
  clients: OAuthClient[];
  clock?: SimClock;
}

const fitbitError = (errorType: string, message: string, extra: Record<string, unknown> = {}) => ({
  errors: [{ errorType, message, ...extra }],
  success: false,
});

export async function fitbitSimulator(app: FastifyInstance, opts: FitbitSimulatorOptions) {
  const clock = opts.clock ?? new SimClock();
  const store = new OAuthStore(clock, 28_800, 'fitbit');
  const clients = new Map(opts.clients.map((c) => [c.clientId, c]));
  const usage = new Map<string, { window: number; count: number }>();
  let failNext: { count: number; status: number } = { count: 0, status: 500 };
  let exhaustedHour = -1;

  await app.register(formbody);

  // --- OAuth -----------------------------------------------------------------
  app.get('/oauth2/authorize', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const fail = (m: string) => reply.type('text/html').send(authorizeErrorPage(m));
    if (!q.client_id) return fail('invalid_request - Missing parameters: client_id');
    const client = clients.get(q.client_id);
    if (!client) return fail('unauthorized_client - Invalid client_id');
    if (!q.response_type) return fail('invalid_request - Missing response_type parameter value');
    if (q.response_type !== 'code')
      return fail('unsupported_response_type - Invalid response_type parameter value');
    if (!q.redirect_uri && client.redirectUris.length !== 1)
      return fail('invalid_request - Missing redirect_uri parameter value');
    const redirectUri = q.redirect_uri ?? client.redirectUris[0]!;
    if (!client.redirectUris.includes(redirectUri))
      return fail('invalid_request - Invalid redirect_uri parameter value');
    if (q.code_challenge && (q.code_challenge.length < 43 || q.code_challenge.length > 128)) {
      return fail('invalid_request - The code_challenge parameter length must be between 43 and 128');
    }
    const method = q.code_challenge_method ?? 'plain';
    if (q.code_challenge && method !== 'S256' && method !== 'plain')
      return fail('invalid_request - Unsupported code_challenge_method');
    const scopes = (q.scope ?? '').split(/[\s+]+/).filter(Boolean);
    // The simulated account is derived from the state, so one participant always maps to one Fitbit user.
    const account = fitbitUserId(`${q.client_id}:${q.state ?? q.login_hint ?? 'anonymous'}`);
    const hidden: Record<string, string> = {
      client_id: q.client_id,
      redirect_uri: redirectUri,
      scope: scopes.join(' '),
      account,
    };
    if (q.state) hidden.state = q.state;
    if (q.code_challenge) {
      hidden.code_challenge = q.code_challenge;
      hidden.code_challenge_method = method;
    }
    return reply
      .type('text/html')
      .send(authorizePage({ action: request.url.split('?')[0]!, hidden, scopes, account }));
  });

  app.post('/oauth2/authorize', async (request, reply) => {
    const b = request.body as Record<string, string>;
    const client = clients.get(b.client_id ?? '');
    if (!client || !client.redirectUris.includes(b.redirect_uri ?? '')) {
      return reply
        .type('text/html')
        .send(authorizeErrorPage('invalid_request - Invalid redirect_uri parameter value'));
    }
    const target = new URL(b.redirect_uri!);
    if (b.decision !== 'allow') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user denied the request.');
    } else {
      const code = store.issueCode({
        clientId: client.clientId,
        userId: b.account!,
        scope: b.scope ?? '',
        redirectUri: b.redirect_uri!,
        codeChallenge: b.code_challenge,
        codeChallengeMethod: b.code_challenge_method as 'S256' | 'plain' | undefined,
      });
      target.searchParams.set('code', code);
    }
    if (b.state) target.searchParams.set('state', b.state);
    // Fitbit appends #_=_ to the redirect (providers.md §1.2); clients strip it.
    return reply.redirect(`${target.toString()}#_=_`, 302);
  });

  /** Basic auth for confidential clients, client_id in the body for public (PKCE) ones. */
  function authenticateClient(request: FastifyRequest): OAuthClient | null {
    const header = request.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      const c = clients.get(id ?? '');
      return c && c.clientSecret === secret ? c : null;
    }
    const id = (request.body as Record<string, string> | undefined)?.client_id;
    return id ? (clients.get(id) ?? null) : null;
  }

  const oauthFailure = (reply: FastifyReply, f: { kind: string; message: string }) => {
    if (f.kind === 'conflict') return reply.status(409).send(fitbitError('request', f.message));
    const status = f.kind === 'invalid_client' ? 401 : 400;
    return reply.status(status).send(fitbitError(f.kind, `${f.message}. ${DOCS}`));
  };

  app.post('/oauth2/token', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string>;
    const client = authenticateClient(request);
    if (!client)
      return oauthFailure(reply, { kind: 'invalid_client', message: 'Invalid authorization header format' });
    let result: ReturnType<OAuthStore['exchangeCode']>;
    if (b.grant_type === 'authorization_code') {
      if (!b.code)
        return oauthFailure(reply, { kind: 'invalid_request', message: 'Missing parameters: code' });
      result = store.exchangeCode({
        code: b.code,
        clientId: client.clientId,
        redirectUri: b.redirect_uri,
        codeVerifier: b.code_verifier,
      });
    } else if (b.grant_type === 'refresh_token') {
      if (!b.refresh_token)
        return oauthFailure(reply, { kind: 'invalid_request', message: 'Missing parameters: refresh_token' });
      result = store.refreshTokens({ refreshToken: b.refresh_token, clientId: client.clientId });
    } else {
      return oauthFailure(reply, { kind: 'invalid_request', message: 'Missing parameters: grant_type' });
    }
    if ('kind' in result) return oauthFailure(reply, result);
    return {
      access_token: result.accessToken,
      expires_in: result.expiresIn,
      refresh_token: result.refreshToken,
      scope: result.scope,
      token_type: 'Bearer',
      user_id: result.userId,
    };
  });

  app.post('/oauth2/revoke', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string>;
    if (!authenticateClient(request))
      return oauthFailure(reply, { kind: 'invalid_client', message: 'Invalid client' });
    if (!b.token)
      return oauthFailure(reply, { kind: 'invalid_request', message: 'Missing parameters: token' });
    store.revoke(b.token);
    return {};
  });

  // --- Resources -------------------------------------------------------------
  /** Bearer check, scope check, injected failures and the hourly rate limit with its headers. */
  async function resource(request: FastifyRequest, reply: FastifyReply, scope: string) {
    if (failNext.count > 0) {
      failNext.count -= 1;
      reply.status(failNext.status).send(fitbitError('system', 'Simulated failure'));
      return null;
    }
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const check = store.checkAccess(token);
    if (!check.ok) {
      const text = check.reason === 'expired_token' ? 'Access token expired' : 'Access token invalid';
      reply.status(401).send(fitbitError(check.reason, `${text}: ${token}. ${DOCS}`));
      return null;
    }
    const { grant } = check;
    const now = clock.now();
    const hour = Math.floor(now.getTime() / 3_600_000);
    const key = `${grant.clientId}:${grant.userId}`;
    const u = usage.get(key);
    const entry = u && u.window === hour ? u : { window: hour, count: 0 };
    entry.count += 1;
    usage.set(key, entry);
    const resetSeconds = Math.ceil(((hour + 1) * 3_600_000 - now.getTime()) / 1000);
    reply.header('Fitbit-Rate-Limit-Limit', String(HOURLY_LIMIT));
    reply.header('Fitbit-Rate-Limit-Remaining', String(Math.max(0, HOURLY_LIMIT - entry.count)));
    reply.header('Fitbit-Rate-Limit-Reset', String(resetSeconds));
    if (exhaustedHour === hour) entry.count = Math.max(entry.count, HOURLY_LIMIT + 1);
    if (entry.count > HOURLY_LIMIT) {
      reply.header('Retry-After', String(resetSeconds));
      reply
        .status(429)
        .send({ errors: [{ errorType: 'system', fieldName: 'n/a', message: 'Too Many Requests' }] });
      return null;
    }
    if (!grant.scope.split(' ').includes(scope)) {
      reply
        .status(403)
        .send(
          fitbitError(
            'insufficient_scope',
            `This application does not have permission to access ${scope} data. ${DOCS}`,
          ),
        );
      return null;
    }
    return grant;
  }

  registerFitbitDataRoutes(app, clock, resource);

  app.get('/1/user/-/devices.json', async (request, reply) => {
    const grant = await resource(request, reply, 'settings');
    if (!grant) return reply;
    return fitbitDevices(grant.userId, clock.now());
  });

  app.get('/1/user/-/profile.json', async (request, reply) => {
    const grant = await resource(request, reply, 'profile');
    if (!grant) return reply;
    return fitbitProfile(grant.userId);
  });

  // --- Control API (tests and training) ---------------------------------------
  app.post('/_control/exhaust-rate-limit', async (request) => {
    const { userId, clientId } = (request.body ?? {}) as { userId?: string; clientId?: string };
    if (!userId || !clientId) {
      // No user named: this hour is used up for everyone (training, browser journeys).
      exhaustedHour = Math.floor(clock.now().getTime() / 3_600_000);
      return { ok: true };
    }
    usage.set(`${clientId}:${userId}`, {
      window: Math.floor(clock.now().getTime() / 3_600_000),
      count: HOURLY_LIMIT,
    });
    return { ok: true };
  });
  registerControlRoutes(app, {
    store,
    clock,
    failNext: (next) => {
      failNext = next;
    },
  });
}
