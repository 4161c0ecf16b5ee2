/*
 * Fitbit Web API simulator (providers.md §1): OAuth 2.0 authorization code
 * with PKCE, 8-hour access tokens, rotating single-use refresh tokens (409
 * on concurrent refresh), revoke, Fitbit's error bodies, the 150/hour rate
 * limit with its headers, and the devices and profile endpoints. Mount it
 * under a prefix (the portal uses /sim/fitbit). The control API can also set
 * a user's wear, battery and sync stop (device-control-routes.ts).
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SimClock } from '../clock.js';
import { FITBIT_BRAND } from '../oauth/authorize-page.js';
import { personSeed } from '../oauth/common.js';
import { CallCounter, registerControlRoutes } from '../oauth/control-routes.js';
import { type OAuthProvider, registerOAuthRoutes } from '../oauth/oauth-routes.js';
import { type ConsentGrant, type OAuthClient, OAuthStore } from '../oauth/oauth-store.js';
import { registerDeviceControlRoutes } from './device-control-routes.js';
import { fitbitDevices, fitbitProfile, fitbitUserId } from './fitbit-data.js';
import { registerFitbitDataRoutes } from './fitbit-data-routes.js';
import { resetFitbitDeviceState } from './fitbit-device-state.js';

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
  /** Mount the control API (/_control/...): development and tests only. */
  control?: boolean;
  clock?: SimClock;
  /** Receives, once mounted, the in-process consent (every scope by default): for seeding demo links. */
  onGrant?: (grant: ConsentGrant) => void;
}

const fitbitError = (errorType: string, message: string, extra: Record<string, unknown> = {}) => ({
  errors: [{ errorType, message, ...extra }],
  success: false,
});

const missingParameter = (name: string) => `Missing parameters: ${name}`;

/**
 * Fitbit's OAuth (providers.md §1.2): its authorize error catalogue, PKCE,
 * and its own error bodies, even on the token endpoint.
 */
const FITBIT_OAUTH: OAuthProvider = {
  brand: FITBIT_BRAND,
  authorize: {
    path: '/oauth2/authorize',
    errors: {
      missingClientId: 'invalid_request - Missing parameters: client_id',
      unknownClient: 'unauthorized_client - Invalid client_id',
      missingResponseType: 'invalid_request - Missing response_type parameter value',
      unsupportedResponseType: 'unsupported_response_type - Invalid response_type parameter value',
      missingRedirectUri: 'invalid_request - Missing redirect_uri parameter value',
      unregisteredRedirectUri: 'invalid_request - Invalid redirect_uri parameter value',
    },
    soleRedirectUriIsDefault: true,
    pkce: {
      badChallengeLength: 'invalid_request - The code_challenge parameter length must be between 43 and 128',
      unsupportedMethod: 'invalid_request - Unsupported code_challenge_method',
    },
    // Derived from the state, so one participant always maps to one Fitbit user.
    account: (q, client) => fitbitUserId(`${client.clientId}:${personSeed(q)}`),
    defaultScope: '',
    scopes: (scope) => {
      const shown = scope.split(/[\s+]+/).filter(Boolean);
      return { shown, granted: shown.join(' ') };
    },
    invalidDecision: 'invalid_request - Invalid redirect_uri parameter value',
    denyDescription: 'The user denied the request.',
    // Fitbit appends #_=_ to the redirect (providers.md §1.2); clients strip it.
    redirectFragment: '#_=_',
  },
  token: {
    path: '/oauth2/token',
    clientAuth: 'public',
    invalidClient: 'Invalid authorization header format',
    unsupportedGrantType: missingParameter('grant_type'),
    missingParameter,
    body: (t) => ({
      access_token: t.accessToken,
      expires_in: t.expiresIn,
      refresh_token: t.refreshToken,
      scope: t.scope,
      token_type: 'Bearer',
      user_id: t.userId,
    }),
  },
  revoke: {
    path: '/oauth2/revoke',
    silent: false,
    invalidClient: 'Invalid client',
    missingToken: missingParameter('token'),
  },
  errorReply: (f) =>
    f.kind === 'conflict'
      ? { status: 409, body: fitbitError('request', f.message) }
      : {
          status: f.kind === 'invalid_client' ? 401 : 400,
          body: fitbitError(f.kind, `${f.message}. ${DOCS}`),
        },
};

export async function fitbitSimulator(app: FastifyInstance, opts: FitbitSimulatorOptions) {
  const clock = opts.clock ?? new SimClock();
  const store = new OAuthStore(clock, 28_800, 'fitbit');
  const usage = new Map<string, { window: number; count: number }>();
  let failNext: { count: number; status: number } = { count: 0, status: 500 };
  let exhaustedHour = -1;

  await app.register(formbody);

  const calls = new CallCounter(store);
  if (opts.control === true) app.addHook('onRequest', calls.hook);
  registerOAuthRoutes(app, FITBIT_OAUTH, { store, clients: opts.clients, clock });
  opts.onGrant?.((clientId, userId, scope) =>
    store.grant(clientId, userId, scope ?? FITBIT_SCOPES.join(' ')),
  );

  // --- Resources -------------------------------------------------------------
  /** Bearer check, scope check, injected failures and the hourly rate limit with its headers. */
  async function resource(request: FastifyRequest, reply: FastifyReply, scope: string) {
    if (failNext.count > 0) {
      failNext.count -= 1;
      if (failNext.status === 429) {
        // As a real exhausted window answers: Retry-After to the top of the hour, Fitbit's 429 body.
        const now = clock.now().getTime();
        reply.header('Retry-After', String(Math.ceil((3_600_000 - (now % 3_600_000)) / 1000)));
        reply
          .status(429)
          .send({ errors: [{ errorType: 'system', fieldName: 'n/a', message: 'Too Many Requests' }] });
        return null;
      }
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
    return fitbitProfile(grant.userId, clock.now());
  });

  // --- Control API (tests and training) ---------------------------------------
  registerControlRoutes(app, {
    enabled: opts.control === true,
    extra: (a) => {
      a.post('/_control/exhaust-rate-limit', async (request) => {
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
      // Undo exhaust-rate-limit (and every user's count this hour): a test that used the hour up
      // gives it back, so journeys after it are not refused for the rest of the hour.
      a.post('/_control/reset-rate-limit', async () => {
        exhaustedHour = -1;
        usage.clear();
        return { ok: true };
      });
      // The tracker (wear, battery, sync stop), shared with the Google Health simulator: same person.
      registerDeviceControlRoutes(a, { clock, userOf: (id) => id });
      /** Back to the start: tracker overrides (both APIs), rate limits, failures, counters, clock. Tokens stay. */
      a.post('/_control/reset', async () => {
        resetFitbitDeviceState();
        exhaustedHour = -1;
        usage.clear();
        failNext = { count: 0, status: 500 };
        calls.reset();
        clock.reset();
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
