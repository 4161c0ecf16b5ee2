/*
 * Google's sign-in: the shared OAuth routes configured for Google
 * (google-oauth.ts: /o/oauth2/v2/auth, /token, /revoke, granular consent,
 * the service-account JWT grant) signing in the person of a consent state,
 * and OIDC userinfo (only with the openid / email scopes, §2.1).
 */
import type { FastifyInstance } from 'fastify';
import { registerOAuthRoutes } from '../oauth/oauth-routes.js';
import type { OAuthClient } from '../oauth/oauth-store.js';
import { googleOAuthProvider } from './google-oauth.js';
import { googleSub } from './person.js';
import type { SimState } from './sim-state.js';

export function registerSignInRoutes(app: FastifyInstance, state: SimState, clients: OAuthClient[]) {
  const { clock, store, people } = state;
  registerOAuthRoutes(
    app,
    googleOAuthProvider({
      config: () => state.config,
      // The same consent state signs in as the same person as on the legacy Fitbit simulator.
      account: (q) =>
        people.forConsent(
          {
            ...(q.state !== undefined && { state: q.state }),
            ...(q.login_hint !== undefined && { login_hint: q.login_hint }),
          },
          state.legacyClientId,
        ).healthUserId,
      serviceToken: (iss, scope) => {
        const t = store.issueServiceToken('service-account', `serviceAccount:${iss}`, scope);
        return { token: t.accessToken, expiresIn: t.expiresIn };
      },
      now: () => clock.now().getTime(),
    }),
    { store, clients, clock },
  );

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
}
