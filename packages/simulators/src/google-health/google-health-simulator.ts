/*
 * Google Health API (v4) simulator (google-health-api.md): Google OAuth
 * (/o/oauth2/v2/auth, /token, /revoke, /oauth2/v3/userinfo), the v4 REST
 * surface the portal needs (gh-routes.ts), the per-user rate limit, the
 * standard Google error bodies, and a control API. The simulated people
 * are the legacy Fitbit simulator's (person.ts): same consent state, same
 * person, same values. Mount it under a prefix (the portal uses
 * /sim/google-health) and point a client's accounts.google.com,
 * oauth2.googleapis.com and health.googleapis.com base URLs at it.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SimClock } from '../clock.js';
import { personSeed } from '../oauth/common.js';
import { CallCounter, registerControlRoutes } from '../oauth/control-routes.js';
import { registerOAuthRoutes } from '../oauth/oauth-routes.js';
import { type OAuthClient, OAuthStore } from '../oauth/oauth-store.js';
import type { ScopeArea } from './data-types/spec.js';
import { DEFAULT_CONFIG, type GoogleHealthConfig } from './gh-config.js';
import { GoogleApiError, googleError } from './gh-json.js';
import { registerGoogleHealthRoutes } from './gh-routes.js';
import { googleOAuthProvider, grants, grantsAnyRead } from './google-oauth.js';
import { changeZone, type DeviceOverride, googleSub, People, type Person } from './person.js';
import { CLOUD_PLATFORM, projectDenied, Webhooks } from './webhooks.js';

/** Where the portal mounts it. */
export const GOOGLE_HEALTH_SIM_PREFIX = '/sim/google-health';
/** The OAuth client the portal registers with its simulator (Google client ids end so). */
export const GOOGLE_HEALTH_SIM_CLIENT_ID = 'trialwear-sim.apps.googleusercontent.com';

export interface GoogleHealthSimulatorOptions {
  clients: OAuthClient[];
  /** Mount the control API (/_control/...): development and tests only. */
  control?: boolean;
  clock?: SimClock;
  /**
   * The legacy Fitbit (simulator) client id whose simulated users are the
   * same people: a consent with the same state signs in as the Google user
   * of that Fitbit user. Default: this simulator's first client id.
   */
  legacyFitbitClientId?: string;
  /** The open questions of the reference (gh-config.ts); defaults in DEFAULT_CONFIG. */
  config?: Partial<GoogleHealthConfig>;
}

const AUTH_HELP =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

export async function googleHealthSimulator(app: FastifyInstance, opts: GoogleHealthSimulatorOptions) {
  const clock = opts.clock ?? new SimClock();
  let config: GoogleHealthConfig = { ...DEFAULT_CONFIG, ...opts.config };
  const store = new OAuthStore(clock, config.accessTokenSeconds, 'google', {
    access: 'ya29.',
    refresh: '1//0g',
  });
  const applyConfig = () => {
    store.setAccessTtl(config.accessTokenSeconds);
    store.refreshPolicy = {
      rotate: false,
      maxPerUser: config.refreshTokensPerUser,
      idleMs: config.refreshTokenIdleDays * 86_400_000,
      ...(config.testingMode && { maxAgeMs: 7 * 86_400_000 }),
    };
  };
  applyConfig();
  const people = new People();
  const legacyClientId = opts.legacyFitbitClientId ?? opts.clients[0]?.clientId ?? 'SIMFITBIT';
  const usage = new Map<string, { minute: number; count: number }>();
  const exhausted = new Map<string, number>(); // userId or '*' → the minute used up
  let failNext: { count: number; status: number; retryAfterSeconds?: number } = { count: 0, status: 500 };

  await app.register(formbody);
  // Google's answer to a body that is not JSON (e.g. a month written 08), in its error envelope.
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, {});
    try {
      done(null, JSON.parse(body as string));
    } catch (e) {
      done(new GoogleApiError(400, `Invalid JSON payload received. ${(e as Error).message}`), undefined);
    }
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof GoogleApiError)
      return reply
        .status(error.code)
        .send(
          googleError(
            error.code,
            error.message,
            error.reason ? { reason: error.reason } : undefined,
            error.status,
          ),
        );
    reply.log.error(error);
    return reply.status(500).send(googleError(500, 'Internal error encountered.'));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(googleError(404, `The requested URL ${request.url.split('?')[0]} was not found on this server.`)),
  );

  const calls = new CallCounter(store);
  if (opts.control === true) app.addHook('onRequest', calls.hook);

  registerOAuthRoutes(
    app,
    googleOAuthProvider({
      config: () => config,
      // The same consent state signs in as the same person as on the legacy Fitbit simulator.
      account: (q) =>
        people.forConsent(
          {
            ...(q.state !== undefined && { state: q.state }),
            ...(q.login_hint !== undefined && { login_hint: q.login_hint }),
          },
          legacyClientId,
        ).healthUserId,
      serviceToken: (iss, scope) => {
        const t = store.issueServiceToken('service-account', `serviceAccount:${iss}`, scope);
        return { token: t.accessToken, expiresIn: t.expiresIn };
      },
      now: () => clock.now().getTime(),
    }),
    { store, clients: opts.clients, clock },
  );

  /** Bearer check, injected failures, the per-user rate limit, the scope and the {user} segment. */
  async function guard(
    request: FastifyRequest,
    reply: FastifyReply,
    method: string,
    area: ScopeArea | 'any',
  ): Promise<Person | null> {
    const info = (reason: string) => ({ reason, method });
    if (failNext.count > 0) {
      failNext.count -= 1;
      const status = failNext.status;
      if (status === 429 && failNext.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(failNext.retryAfterSeconds));
      const message =
        status === 429
          ? "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute per user' of service 'health.googleapis.com'."
          : status === 503
            ? 'The service is currently unavailable.'
            : status === 401
              ? `Request had invalid authentication credentials. ${AUTH_HELP}`
              : status === 403
                ? 'The caller does not have permission'
                : 'Internal error encountered.';
      const reason =
        status === 429
          ? 'RATE_LIMIT_EXCEEDED'
          : status === 403
            ? 'RESOURCE_PERMISSION_DENIED'
            : status === 401
              ? 'INVALID_AUTHENTICATOR'
              : undefined;
      reply.status(status).send(googleError(status, message, reason ? info(reason) : undefined));
      return null;
    }
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ')
      ? header.slice(7)
      : ((request.query as Record<string, string | undefined>).access_token ?? '');
    if (!token) {
      reply
        .status(401)
        .header('WWW-Authenticate', 'Bearer realm="https://accounts.google.com/"')
        .send(
          googleError(
            401,
            `Request is missing required authentication credential. ${AUTH_HELP}`,
            info('CREDENTIALS_MISSING'),
          ),
        );
      return null;
    }
    const check = store.checkAccess(token);
    if (!check.ok) {
      reply
        .status(401)
        .header('WWW-Authenticate', 'Bearer realm="https://accounts.google.com/", error="invalid_token"')
        .send(
          googleError(
            401,
            `Request had invalid authentication credentials. ${AUTH_HELP}`,
            info('INVALID_AUTHENTICATOR'),
          ),
        );
      return null;
    }
    const { grant } = check;
    const minute = Math.floor(clock.now().getTime() / 60_000);
    const u = usage.get(grant.userId);
    const entry = u && u.minute === minute ? u : { minute, count: 0 };
    entry.count += 1;
    usage.set(grant.userId, entry);
    if (
      entry.count > config.requestsPerUserPerMinute ||
      exhausted.get(grant.userId) === minute ||
      exhausted.get('*') === minute
    ) {
      if (config.retryAfterOn429)
        reply.header('Retry-After', String(60 - Math.floor((clock.now().getTime() % 60_000) / 1000)));
      reply.status(429).send(
        googleError(
          429,
          "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute per user' of service 'health.googleapis.com'.",
          {
            reason: 'RATE_LIMIT_EXCEEDED',
            domain: 'googleapis.com',
            method,
            metadata: {
              quota_metric: 'health.googleapis.com/requests',
              quota_limit: 'RequestsPerMinutePerUser',
              quota_limit_value: String(config.requestsPerUserPerMinute),
            },
          },
        ),
      );
      return null;
    }
    const ok = area === 'any' ? grantsAnyRead(grant.scope, config) : grants(grant.scope, area, config);
    if (!ok) {
      reply
        .status(403)
        .send(
          googleError(
            403,
            'Request had insufficient authentication scopes.',
            info('ACCESS_TOKEN_SCOPE_INSUFFICIENT'),
          ),
        );
      return null;
    }
    const user = (request.params as { user?: string }).user;
    if (user !== undefined && user !== 'me' && user !== grant.userId) {
      reply
        .status(403)
        .send(googleError(403, 'The caller does not have permission', info('RESOURCE_PERMISSION_DENIED')));
      return null;
    }
    const person = people.get(grant.userId);
    if (person.notLinked) {
      reply
        .status(400)
        .send(
          googleError(
            400,
            'The Google account is not linked to a Fitbit account.',
            info('ACCOUNT_NOT_LINKED'),
          ),
        );
      return null;
    }
    return person;
  }

  registerGoogleHealthRoutes(app, { clock, config: () => config, guard });

  // Webhook subscribers (project level, a service account's cloud-platform token).
  const webhooks = new Webhooks({ clock, store, people, config: () => config });
  webhooks.register(app, (request, reply) => {
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!token) {
      reply.status(401).send(
        googleError(401, `Request is missing required authentication credential. ${AUTH_HELP}`, {
          reason: 'CREDENTIALS_MISSING',
        }),
      );
      return false;
    }
    const check = store.checkAccess(token);
    if (!check.ok) {
      reply.status(401).send(
        googleError(401, `Request had invalid authentication credentials. ${AUTH_HELP}`, {
          reason: 'INVALID_AUTHENTICATOR',
        }),
      );
      return false;
    }
    if (!check.grant.scope.split(' ').includes(CLOUD_PLATFORM)) {
      reply.status(403).send(projectDenied());
      return false;
    }
    return true;
  });

  // OIDC userinfo (only with openid / email scopes, §2.1).
  app.get('/oauth2/v3/userinfo', async (request, reply) => {
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const check = store.checkAccess(token);
    if (!check.ok)
      return reply.status(401).send({ error: 'invalid_request', error_description: 'Invalid Credentials' });
    const scopes = check.grant.scope.split(' ');
    if (!scopes.includes('openid') && !scopes.includes('email'))
      return reply.status(401).send({ error: 'invalid_request', error_description: 'Invalid Credentials' });
    return {
      sub: googleSub(check.grant.userId),
      ...(scopes.includes('email') && {
        email: `participant.${check.grant.userId}@example.com`,
        email_verified: true,
      }),
    };
  });

  // --- Control API (tests and training) ---------------------------------------
  const personOf = (body: unknown) => {
    const id = (body as { userId?: string } | undefined)?.userId ?? '';
    const p = people.find(id);
    if (!p) throw new GoogleApiError(404, `Unknown simulated user: ${id}`);
    return p;
  };
  registerControlRoutes(app, {
    enabled: opts.control === true,
    store,
    clock,
    calls,
    failNext: (next) => {
      failNext = next;
    },
    extra: (a) => {
      /** The simulated person of a consent state or a user id: ids, zone history. */
      a.get('/_control/person', async (request) => {
        const q = request.query as { userId?: string; state?: string };
        const p = q.state ? people.forConsent({ state: q.state }, legacyClientId) : personOf(q);
        return {
          healthUserId: p.healthUserId,
          legacyFitbitUserId: p.dataUserId,
          legacyUserId: p.legacyUserId,
          zones: p.zones.map((z) => ({
            from: Number.isFinite(z.from) ? new Date(z.from).toISOString() : null,
            timeZone: z.tz,
          })),
          seed: q.state ? personSeed({ state: q.state }) : undefined,
        };
      });
      /** Move a person to another IANA zone from an instant (default: now). */
      a.post('/_control/time-zone', async (request) => {
        const b = request.body as { userId: string; timeZone: string; from?: string };
        const p = personOf(b);
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: b.timeZone });
        } catch {
          throw new GoogleApiError(400, `Unknown time zone: ${b.timeZone}`);
        }
        const from = b.from ? Date.parse(b.from) : clock.now().getTime();
        if (Number.isNaN(from)) throw new GoogleApiError(400, `Invalid instant: ${b.from}`);
        changeZone(p, b.timeZone, from);
        return {
          ok: true,
          zones: p.zones.map((z) => ({
            from: Number.isFinite(z.from) ? new Date(z.from).toISOString() : null,
            timeZone: z.tz,
          })),
        };
      });
      /** Identity and devices: legacyUserId (null: none), a device's battery and last sync. */
      a.post('/_control/user', async (request) => {
        const b = request.body as {
          userId: string;
          legacyUserId?: string | null;
          notLinked?: boolean;
          tracker?: DeviceOverride;
          scale?: DeviceOverride;
        };
        const p = personOf(b);
        if (b.legacyUserId !== undefined) p.legacyUserId = b.legacyUserId;
        if (b.notLinked !== undefined) p.notLinked = b.notLinked;
        if (b.tracker) p.devices.TRACKER = { ...p.devices.TRACKER, ...b.tracker };
        if (b.scale) p.devices.SCALE = { ...p.devices.SCALE, ...b.scale };
        return { ok: true };
      });
      /** Use up this minute's requests (one user, or everyone without a userId). */
      a.post('/_control/exhaust-rate-limit', async (request) => {
        const { userId } = (request.body ?? {}) as { userId?: string };
        exhausted.set(userId ?? '*', Math.floor(clock.now().getTime() / 60_000));
        return { ok: true };
      });
      a.post('/_control/reset-rate-limit', async () => {
        exhausted.clear();
        usage.clear();
        return { ok: true };
      });
      a.get('/_control/config', async () => config);
      a.post('/_control/config', async (request) => {
        const b = (request.body ?? {}) as Partial<GoogleHealthConfig>;
        for (const k of Object.keys(b))
          if (!(k in DEFAULT_CONFIG)) throw new GoogleApiError(400, `Unknown configuration key: ${k}`);
        config = { ...config, ...b };
        applyConfig();
        return config;
      });
      /**
       * Data changed: notify the subscribers (§5.3). One event `{userId, dataType, dates}`
       * or `events: [...]` batched into one array per subscriber; answers the deliveries.
       */
      a.post('/_control/notify', async (request) => {
        const b = (request.body ?? {}) as {
          userId?: string;
          dataType?: string;
          dates?: string[];
          date?: string;
          operation?: string;
          events?: Array<{ userId: string; dataType: string; dates: string[]; operation?: string }>;
        };
        // Users by healthUserId or legacy Fitbit id.
        const events = b.events?.map((e) => ({ ...e, userId: personOf(e).healthUserId })) ?? [
          {
            userId: personOf(b).healthUserId,
            dataType: b.dataType ?? '',
            dates: b.dates ?? (b.date ? [b.date] : []),
            ...(b.operation && { operation: b.operation }),
          },
        ];
        return { deliveries: await webhooks.notify(events) };
      });
      a.get('/_control/deliveries', async () => ({ deliveries: webhooks.deliveries }));
      a.get('/_control/webhook-public-key', async (_request, reply) =>
        reply.type('text/plain').send(webhooks.publicKey),
      );
      a.post('/_control/webhooks/reset', async () => {
        webhooks.reset();
        return { ok: true };
      });
      /** Back to the start: configuration, people (zones, identity, devices), rate limits, failures, counters, clock. Tokens stay. */
      a.post('/_control/reset', async () => {
        config = { ...DEFAULT_CONFIG, ...opts.config };
        applyConfig();
        people.reset();
        exhausted.clear();
        usage.clear();
        failNext = { count: 0, status: 500 };
        calls.reset();
        clock.reset();
        return { ok: true };
      });
    },
  });
}
