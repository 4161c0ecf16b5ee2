/*
 * The OAuth 2.0 routes every provider simulator serves: the consent page
 * (GET authorize, POST Allow/Deny and the redirect back), the token endpoint
 * (authorization_code and refresh_token grants) and, where the provider has
 * one, revocation. The flow is the same for Fitbit, Omron and Dexcom; what
 * the real services differ in (providers.md §1.2, §2.3, §3.2: paths, error
 * catalogue, error bodies and statuses, client authentication, PKCE, token
 * fields) is the provider's OAuthProvider, so each simulator stays faithful
 * without a copy of the flow.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimClock } from '../clock.js';
import { authorizeErrorPage, authorizePage, type Brand } from './authorize-page.js';
import { authenticateClient, type ClientAuth } from './common.js';
import type { IssuedTokens, OAuthClient, OAuthFailure, OAuthStore } from './oauth-store.js';

type Params = Record<string, string | undefined>;

/** The authorize request's error messages, in the provider's own words (shown on the page, no status). */
export interface AuthorizeErrors {
  missingClientId: string;
  unknownClient: string;
  missingResponseType: string;
  unsupportedResponseType: string;
  missingRedirectUri: string;
  unregisteredRedirectUri: string;
}

/** The bare RFC 6749 codes IdentityServer (Omron) and Keycloak (Dexcom) show, but for redirect_uri. */
export const rfcAuthorizeErrors = (badRedirectUri: string): AuthorizeErrors => ({
  missingClientId: 'invalid_client',
  unknownClient: 'invalid_client',
  missingResponseType: 'unsupported_response_type',
  unsupportedResponseType: 'unsupported_response_type',
  missingRedirectUri: badRedirectUri,
  unregisteredRedirectUri: badRedirectUri,
});

export interface OAuthProvider {
  brand: Brand;
  authorize: {
    path: string;
    errors: AuthorizeErrors;
    /** Fitbit lets redirect_uri be left out when the client registered only one. */
    soleRedirectUriIsDefault: boolean;
    /** PKCE (Fitbit): the challenge is checked on the page and bound to the code. Absent: ignored. */
    pkce?: { badChallengeLength: string; unsupportedMethod: string };
    /** The simulated account that consents, derived from the request: one participant, one provider user. */
    account(query: Params, client: OAuthClient): string;
    /** Scope granted when a request carries none. */
    defaultScope: string;
    /** The scopes the page lists and the scope value the grant keeps. */
    scopes(scope: string): { shown: string[]; granted: string };
    /** An error shown on the page for scopes the provider does not know (Google: invalid_scope). */
    invalidScope?(scope: string): string | null;
    /**
     * Granular consent (Google): the page shows one checkbox per scope, all
     * ticked, and the grant keeps only those left ticked.
     */
    selectableScopes?: boolean;
    /**
     * Incremental authorization (Google's include_granted_scopes=true): the
     * scope the new grant carries, given what the user still holds.
     */
    mergeScopes?(params: Params, scope: string, held: Set<string>): string;
    /** The granted scope on the redirect back with the code (Google). */
    scopeInRedirect?: boolean;
    /** Request parameters carried through the Allow/Deny form (Google: access_type, prompt). */
    passThrough?: string[];
    /**
     * Whether the code's exchange issues a refresh token, from the request
     * parameters and whether the user already holds one for this client.
     * Absent: always.
     */
    issueRefreshToken?(params: Params, alreadyHasOne: boolean): boolean;
    /** Shown when the Allow/Deny form names an unknown client or redirect URI. */
    invalidDecision: string;
    /** error_description sent with access_denied, where the provider sends one. */
    denyDescription?: string;
    /** Appended to every redirect back (Fitbit's `#_=_`). */
    redirectFragment?: string;
  };
  token: {
    path: string;
    clientAuth: ClientAuth;
    invalidClient: string;
    unsupportedGrantType: string;
    /** Fitbit names a missing code or refresh_token (invalid_request); elsewhere it is an invalid grant. */
    missingParameter?: (name: string) => string;
    /**
     * Grants answered before client authentication (Google's service-account
     * JWT bearer grant): the reply, or null for the usual grants.
     */
    customGrant?(body: Record<string, string>): { status: number; body: unknown } | null;
    /** The success body, field order included. */
    body(
      tokens: IssuedTokens,
      context: { grantType: 'authorization_code' | 'refresh_token'; client: OAuthClient; nowMs: number },
    ): object;
  };
  /**
   * Revocation, where the provider has it. `silent`: 200 with no body whatever happens
   * (IdentityServer, providers.md §2.3); otherwise a bad client or a missing token is an error and
   * success is `{}` (Fitbit).
   */
  revoke?:
    | { path: string; silent: true }
    | { path: string; silent: false; invalidClient: string; missingToken: string }
    /**
     * Google: no client authentication, the token in the query or the form,
     * 200 with an empty body; a missing or unknown token is an error.
     */
    | { path: string; silent: false; tokenOnly: true; missingToken: string; unknownToken: string };
  /** Status and body of a token or revocation error, in the provider's format. */
  errorReply(failure: OAuthFailure): { status: number; body: unknown };
}

export function registerOAuthRoutes(
  app: FastifyInstance,
  provider: OAuthProvider,
  deps: { store: OAuthStore; clients: OAuthClient[]; clock: SimClock },
) {
  const { store, clock } = deps;
  const clients = new Map(deps.clients.map((c) => [c.clientId, c]));
  const { brand, authorize: a, token: t } = provider;

  const fail = (reply: FastifyReply, failure: OAuthFailure) => {
    const { status, body } = provider.errorReply(failure);
    return reply.status(status).send(body);
  };

  app.get(a.path, async (request, reply) => {
    const q = request.query as Params;
    const page = (m: string) => reply.type('text/html').send(authorizeErrorPage(m, brand));
    if (!q.client_id) return page(a.errors.missingClientId);
    const client = clients.get(q.client_id);
    if (!client) return page(a.errors.unknownClient);
    if (!q.response_type) return page(a.errors.missingResponseType);
    if (q.response_type !== 'code') return page(a.errors.unsupportedResponseType);
    if (!q.redirect_uri && !(a.soleRedirectUriIsDefault && client.redirectUris.length === 1))
      return page(a.errors.missingRedirectUri);
    const redirectUri = q.redirect_uri ?? client.redirectUris[0]!;
    if (!client.redirectUris.includes(redirectUri)) return page(a.errors.unregisteredRedirectUri);
    const method = q.code_challenge_method ?? 'plain';
    if (a.pkce && q.code_challenge) {
      if (q.code_challenge.length < 43 || q.code_challenge.length > 128)
        return page(a.pkce.badChallengeLength);
      if (method !== 'S256' && method !== 'plain') return page(a.pkce.unsupportedMethod);
    }
    const scopeError = a.invalidScope?.(q.scope ?? a.defaultScope);
    if (scopeError) return page(scopeError);
    const { shown, granted } = a.scopes(q.scope ?? a.defaultScope);
    const account = a.account(q, client);
    const hidden: Record<string, string> = {
      client_id: client.clientId,
      redirect_uri: redirectUri,
      scope: granted,
      account,
    };
    if (q.state) hidden.state = q.state;
    if (a.pkce && q.code_challenge) {
      hidden.code_challenge = q.code_challenge;
      hidden.code_challenge_method = method;
    }
    for (const name of a.passThrough ?? []) if (q[name] !== undefined) hidden[name] = q[name]!;
    const selectable = a.selectableScopes
      ? granted
          .split(' ')
          .filter(Boolean)
          .map((value, i) => ({ value, label: shown[i] ?? value }))
      : undefined;
    if (selectable) hidden.scope_select = '1';
    return reply.type('text/html').send(
      authorizePage({
        action: request.url.split('?')[0]!,
        hidden,
        scopes: shown,
        account,
        brand,
        ...(selectable && { selectable }),
      }),
    );
  });

  app.post(a.path, async (request, reply) => {
    const b = request.body as Record<string, string>;
    const client = clients.get(b.client_id ?? '');
    if (!client || !client.redirectUris.includes(b.redirect_uri ?? ''))
      return reply.type('text/html').send(authorizeErrorPage(a.invalidDecision, brand));
    const target = new URL(b.redirect_uri!);
    let scope = b.scope ?? a.defaultScope;
    if (a.selectableScopes && b.scope_select === '1') {
      // Granular consent: only the scopes left ticked (scope_item repeats, one per box).
      const raw = (request.body as Record<string, string | string[] | undefined>).scope_item;
      const ticked = new Set(Array.isArray(raw) ? raw : raw ? [raw] : []);
      scope = scope
        .split(' ')
        .filter((s) => ticked.has(s))
        .join(' ');
    }
    if (b.decision === 'allow' && a.mergeScopes && b.account)
      scope = a.mergeScopes(b, scope, store.grantedScopes(b.account));
    if (b.decision === 'allow' && scope === '' && a.selectableScopes) {
      // Nothing ticked: the grant is refused, as a user unticking everything would be.
      target.searchParams.set('error', 'access_denied');
    } else if (b.decision === 'allow') {
      const code = store.issueCode({
        clientId: client.clientId,
        userId: b.account!,
        scope,
        redirectUri: b.redirect_uri!,
        ...(a.issueRefreshToken && {
          refresh: a.issueRefreshToken(b, store.hasRefreshToken(client.clientId, b.account!)),
        }),
        // Without PKCE a posted challenge must not bind the code.
        ...(a.pkce && {
          codeChallenge: b.code_challenge,
          codeChallengeMethod: b.code_challenge_method as 'S256' | 'plain' | undefined,
        }),
      });
      target.searchParams.set('code', code);
      if (a.scopeInRedirect) target.searchParams.set('scope', scope);
    } else {
      target.searchParams.set('error', 'access_denied');
      if (a.denyDescription) target.searchParams.set('error_description', a.denyDescription);
    }
    if (b.state) target.searchParams.set('state', b.state);
    return reply.redirect(`${target.toString()}${a.redirectFragment ?? ''}`, 302);
  });

  function grant(b: Record<string, string>, client: OAuthClient): IssuedTokens | OAuthFailure {
    const missing = (name: string) =>
      t.missingParameter && !b[name]
        ? {
            kind: 'invalid_request' as const,
            reason: 'missing_parameter' as const,
            message: t.missingParameter(name),
          }
        : null;
    if (b.grant_type === 'authorization_code') {
      return (
        missing('code') ??
        store.exchangeCode({
          code: b.code ?? '',
          clientId: client.clientId,
          redirectUri: b.redirect_uri,
          codeVerifier: b.code_verifier,
        })
      );
    }
    if (b.grant_type === 'refresh_token') {
      return (
        missing('refresh_token') ??
        store.refreshTokens({ refreshToken: b.refresh_token ?? '', clientId: client.clientId })
      );
    }
    return { kind: 'invalid_request', reason: 'unsupported_grant_type', message: t.unsupportedGrantType };
  }

  app.post(t.path, async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string>;
    const custom = t.customGrant?.(b);
    if (custom) return reply.status(custom.status).send(custom.body);
    const client = authenticateClient(request, clients, t.clientAuth);
    if (!client) return fail(reply, { kind: 'invalid_client', message: t.invalidClient });
    const result = grant(b, client);
    if ('kind' in result) return fail(reply, result);
    const grantType = b.grant_type as 'authorization_code' | 'refresh_token';
    return t.body(result, { grantType, client, nowMs: clock.now().getTime() });
  });

  const revoke = provider.revoke;
  if (!revoke) return;
  app.post(revoke.path, async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string>;
    if ('tokenOnly' in revoke) {
      const token = b.token ?? (request.query as Params).token;
      if (!token) return fail(reply, { kind: 'invalid_request', message: revoke.missingToken });
      if (!store.revoke(token)) return fail(reply, { kind: 'invalid_grant', message: revoke.unknownToken });
      return reply.status(200).send();
    }
    const client = authenticateClient(request, clients, t.clientAuth);
    if (revoke.silent) {
      if (client && b.token) store.revoke(b.token);
      return reply.status(200).send();
    }
    if (!client) return fail(reply, { kind: 'invalid_client', message: revoke.invalidClient });
    if (!b.token) return fail(reply, { kind: 'invalid_request', message: revoke.missingToken });
    store.revoke(b.token);
    return {};
  });
}
