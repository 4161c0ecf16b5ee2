/*
 * Who may call: the bearer check of every v4 data call (with the failures
 * the control API injects, the per-user rate limit, the scope and the
 * {user} segment), and the project-level check of the webhook subscriber
 * calls (a service account's cloud-platform token). Refusals are Google's
 * error bodies.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthStore } from '../oauth/oauth-store.js';
import type { GhGuard } from './api/route-kit.js';
import type { ScopeArea } from './data-types/spec.js';
import { googleError } from './gh-json.js';
import { grants, grantsAnyRead } from './google-oauth.js';
import type { Person } from './person.js';
import type { SimState } from './sim-state.js';
import { CLOUD_PLATFORM, projectDenied } from './webhooks.js';

const AUTH_HELP =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/** Bearer check, injected failures, the per-user rate limit, the scope and the {user} segment. */
export function dataCallGuard(state: SimState): GhGuard {
  return async function guard(
    request: FastifyRequest,
    reply: FastifyReply,
    method: string,
    area: ScopeArea | 'any',
  ): Promise<Person | null> {
    const info = (reason: string) => ({ reason, method });
    if (state.failNext.count > 0) {
      state.failNext.count -= 1;
      const status = state.failNext.status;
      if (status === 429 && state.failNext.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(state.failNext.retryAfterSeconds));
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
    const check = state.store.checkAccess(token);
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
    const minute = Math.floor(state.clock.now().getTime() / 60_000);
    const u = state.usage.get(grant.userId);
    const entry = u && u.minute === minute ? u : { minute, count: 0 };
    entry.count += 1;
    state.usage.set(grant.userId, entry);
    if (
      entry.count > state.config.requestsPerUserPerMinute ||
      state.exhausted.get(grant.userId) === minute ||
      state.exhausted.get('*') === minute
    ) {
      if (state.config.retryAfterOn429)
        reply.header('Retry-After', String(60 - Math.floor((state.clock.now().getTime() % 60_000) / 1000)));
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
              quota_limit_value: String(state.config.requestsPerUserPerMinute),
            },
          },
        ),
      );
      return null;
    }
    const ok =
      area === 'any' ? grantsAnyRead(grant.scope, state.config) : grants(grant.scope, area, state.config);
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
    const person = state.people.get(grant.userId);
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
  };
}

/** Webhook subscriber calls: a token with the cloud-platform scope; false when refused (answered). */
export function projectGuard(store: OAuthStore) {
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
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
  };
}
