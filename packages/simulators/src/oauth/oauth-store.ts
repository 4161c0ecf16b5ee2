/*
 * In-memory OAuth 2.0 authorization server state shared by the provider
 * simulators: authorization codes (10 minutes, single use, PKCE), access
 * tokens with a lifetime, refresh tokens that rotate (the old one stops
 * working; reusing it within a short window is a concurrent refresh → 409)
 * or, for Google (`rotateRefreshTokens: false`), stay valid and are not sent
 * again; refresh tokens withheld from a grant (Google without
 * access_type=offline), capped per user and client, dying when idle or past
 * a maximum age; and revocation of everything a user granted to a client.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SimClock } from '../clock.js';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

interface CodeGrant {
  code: string;
  clientId: string;
  userId: string;
  scope: string;
  redirectUri: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256' | 'plain';
  /** False: the exchange issues no refresh token (Google without access_type=offline). Default true. */
  refresh?: boolean;
  expiresAt: number;
}

export interface AccessGrant {
  token: string;
  clientId: string;
  userId: string;
  scope: string;
  expiresAt: number;
}

interface RefreshGrant {
  token: string;
  clientId: string;
  userId: string;
  scope: string;
  spentAt?: number;
  createdAt: number;
  lastUsedAt: number;
}

/**
 * Why a token request failed, for providers whose error bodies name the case
 * in their own words (Google); the others use `message`.
 */
export type FailureReason =
  | 'code_invalid'
  | 'code_other_client'
  | 'redirect_mismatch'
  | 'verifier_missing'
  | 'verifier_invalid'
  | 'refresh_invalid'
  | 'missing_parameter'
  | 'unsupported_grant_type';

export type OAuthFailure =
  | { kind: 'invalid_request'; message: string; reason?: FailureReason }
  | { kind: 'invalid_client'; message: string; reason?: FailureReason }
  | { kind: 'invalid_grant'; message: string; reason?: FailureReason }
  | { kind: 'conflict'; message: string; reason?: FailureReason };

/**
 * Grants a client a user's consent in-process (no browser), answering the
 * tokens, with `scope` (the simulator's full scope when left out): the
 * portal's demo seed links simulated people this way.
 */
export type ConsentGrant = (clientId: string, userId: string, scope?: string) => IssuedTokens;

export interface IssuedTokens {
  accessToken: string;
  /** Absent when the grant has none (Google: no offline access) or a refresh did not rotate it. */
  refreshToken?: string;
  expiresIn: number;
  scope: string;
  userId: string;
}

/** How refresh tokens live (defaults: Fitbit's rotation, no cap, no expiry). */
export interface RefreshPolicy {
  /** True (default): each refresh spends the token and issues a new one. False: it stays valid (Google). */
  rotate?: boolean;
  /** Live refresh tokens per user and client; the oldest is silently invalidated beyond it. */
  maxPerUser?: number;
  /** A refresh token not used for this long dies (Google: 6 months). */
  idleMs?: number;
  /** A refresh token older than this dies (Google apps in "Testing": 7 days). */
  maxAgeMs?: number;
}

const CODE_TTL_MS = 10 * 60 * 1000;
/** A refresh token reused this soon after it was spent counts as a concurrent refresh (409), later as invalid (400). */
const CONCURRENT_REFRESH_WINDOW_MS = 2_000;

export class OAuthStore {
  private codes = new Map<string, CodeGrant>();
  private access = new Map<string, AccessGrant>();
  private refresh = new Map<string, RefreshGrant>();

  constructor(
    private readonly clock: SimClock,
    private accessTtlSeconds: number,
    private readonly tokenPrefix: string,
    /** Google-style opaque tokens (`ya29.…`, `1//…`) instead of `<prefix>.at.…`. */
    private readonly tokenFormat?: { access: string; refresh: string },
    public refreshPolicy: RefreshPolicy = {},
  ) {}

  /** Control API / configuration: the lifetime of access tokens issued from now on. */
  setAccessTtl(seconds: number) {
    this.accessTtlSeconds = seconds;
  }

  private token(kind: 'at' | 'rt') {
    const random = randomBytes(24).toString('base64url');
    if (this.tokenFormat)
      return `${kind === 'at' ? this.tokenFormat.access : this.tokenFormat.refresh}${random}`;
    return `${this.tokenPrefix}.${kind}.${random}`;
  }

  /** Whether the user holds a live refresh token for the client (Google: a repeat consent gets none). */
  hasRefreshToken(clientId: string, userId: string): boolean {
    const now = this.clock.now().getTime();
    for (const g of this.refresh.values())
      if (g.clientId === clientId && g.userId === userId && g.spentAt === undefined && this.alive(g, now))
        return true;
    return false;
  }

  private alive(g: RefreshGrant, now: number) {
    const p = this.refreshPolicy;
    if (p.idleMs !== undefined && now - g.lastUsedAt > p.idleMs) return false;
    if (p.maxAgeMs !== undefined && now - g.createdAt > p.maxAgeMs) return false;
    return true;
  }

  issueCode(g: Omit<CodeGrant, 'code' | 'expiresAt'>): string {
    const code = randomBytes(20).toString('hex');
    this.codes.set(code, { ...g, code, expiresAt: this.clock.now().getTime() + CODE_TTL_MS });
    return code;
  }

  exchangeCode(p: {
    code: string;
    clientId: string;
    redirectUri?: string;
    codeVerifier?: string;
  }): IssuedTokens | OAuthFailure {
    const grant = this.codes.get(p.code);
    this.codes.delete(p.code); // single use, whatever happens next
    if (!grant || grant.expiresAt <= this.clock.now().getTime()) {
      return {
        kind: 'invalid_grant',
        reason: 'code_invalid',
        message: `Authorization code invalid: ${p.code}`,
      };
    }
    if (grant.clientId !== p.clientId)
      return {
        kind: 'invalid_grant',
        reason: 'code_other_client',
        message: 'Authorization code was issued to another client',
      };
    if (grant.redirectUri && p.redirectUri !== grant.redirectUri)
      return { kind: 'invalid_grant', reason: 'redirect_mismatch', message: 'Redirect URI mismatch' };
    if (grant.codeChallenge) {
      if (!p.codeVerifier)
        return {
          kind: 'invalid_request',
          reason: 'verifier_missing',
          message: 'Missing parameters: code_verifier',
        };
      const computed =
        grant.codeChallengeMethod === 'S256'
          ? createHash('sha256').update(p.codeVerifier).digest('base64url')
          : p.codeVerifier;
      if (computed !== grant.codeChallenge)
        return { kind: 'invalid_grant', reason: 'verifier_invalid', message: 'Invalid code_verifier' };
    }
    return this.issue(grant.clientId, grant.userId, grant.scope, grant.refresh !== false);
  }

  /**
   * The tokens of a consent the account holder gave out of band (the portal's
   * demo seed links simulated people without a browser): as an authorization
   * code's exchange would issue them.
   */
  grant(clientId: string, userId: string, scope: string): IssuedTokens {
    return this.issue(clientId, userId, scope, true);
  }

  /** An access token without a refresh token for a non-user principal (a Google service account). */
  issueServiceToken(clientId: string, principal: string, scope: string): IssuedTokens {
    return this.issue(clientId, principal, scope, false);
  }

  /** The scopes a user still holds for a client through a live access or refresh token. */
  grantedScopes(userId: string): Set<string> {
    const now = this.clock.now().getTime();
    const out = new Set<string>();
    for (const g of this.access.values())
      if (g.userId === userId && g.expiresAt > now) for (const s of g.scope.split(' ')) out.add(s);
    for (const g of this.refresh.values())
      if (g.userId === userId && g.spentAt === undefined && this.alive(g, now))
        for (const s of g.scope.split(' ')) out.add(s);
    return out;
  }

  private issue(clientId: string, userId: string, scope: string, withRefresh: boolean): IssuedTokens {
    const now = this.clock.now().getTime();
    const accessToken = this.token('at');
    this.access.set(accessToken, {
      token: accessToken,
      clientId,
      userId,
      scope,
      expiresAt: now + this.accessTtlSeconds * 1000,
    });
    const issued: IssuedTokens = { accessToken, expiresIn: this.accessTtlSeconds, scope, userId };
    if (!withRefresh) return issued;
    const refreshToken = this.token('rt');
    this.refresh.set(refreshToken, {
      token: refreshToken,
      clientId,
      userId,
      scope,
      createdAt: now,
      lastUsedAt: now,
    });
    this.capRefreshTokens(clientId, userId);
    return { ...issued, refreshToken };
  }

  /** Beyond the cap the oldest refresh tokens of the user and client are silently invalidated (Google). */
  private capRefreshTokens(clientId: string, userId: string) {
    const max = this.refreshPolicy.maxPerUser;
    if (max === undefined) return;
    const live = [...this.refresh.values()].filter(
      (g) => g.clientId === clientId && g.userId === userId && g.spentAt === undefined,
    );
    // Map order is insertion order: the first are the oldest.
    for (const g of live.slice(0, Math.max(0, live.length - max))) this.refresh.delete(g.token);
  }

  refreshTokens(p: { refreshToken: string; clientId: string }): IssuedTokens | OAuthFailure {
    const grant = this.refresh.get(p.refreshToken);
    const invalid: OAuthFailure = {
      kind: 'invalid_grant',
      reason: 'refresh_invalid',
      message: `Refresh token invalid: ${p.refreshToken}`,
    };
    if (!grant || grant.clientId !== p.clientId) return invalid;
    const now = this.clock.now().getTime();
    if (grant.spentAt !== undefined) {
      return now - grant.spentAt < CONCURRENT_REFRESH_WINDOW_MS
        ? {
            kind: 'conflict',
            message: 'Request conflict due to multiple clients attempting to refresh the same access token',
          }
        : invalid;
    }
    if (!this.alive(grant, now)) {
      this.refresh.delete(grant.token);
      return invalid;
    }
    if (this.refreshPolicy.rotate === false) {
      // Google: a new access token; the refresh token stays valid and is not sent again.
      grant.lastUsedAt = now;
      return this.issue(grant.clientId, grant.userId, grant.scope, false);
    }
    grant.spentAt = now; // rotation: this refresh token is spent
    return this.issue(grant.clientId, grant.userId, grant.scope, true);
  }

  /** Revoking either token removes every token of that user for that client (RFC 7009, as Fitbit does). */
  revoke(token: string): boolean {
    const g = this.access.get(token) ?? this.refresh.get(token);
    if (!g) return false;
    this.revokeUser(g.clientId, g.userId);
    return true;
  }

  revokeUser(clientId: string | null, userId: string) {
    for (const map of [this.access, this.refresh] as Array<
      Map<string, { clientId: string; userId: string }>
    >) {
      for (const [k, v] of map)
        if (v.userId === userId && (clientId === null || v.clientId === clientId)) map.delete(k);
    }
  }

  /** Control API: make every access token of a user expire now. */
  expireUser(userId: string) {
    for (const g of this.access.values())
      if (g.userId === userId) g.expiresAt = this.clock.now().getTime() - 1;
  }

  /** Whose access token this is, expired or not (the control API counts calls per user). */
  userOf(token: string): string | null {
    return this.access.get(token)?.userId ?? null;
  }

  checkAccess(
    token: string,
  ): { ok: true; grant: AccessGrant } | { ok: false; reason: 'invalid_token' | 'expired_token' } {
    const g = this.access.get(token);
    if (!g) return { ok: false, reason: 'invalid_token' };
    if (g.expiresAt <= this.clock.now().getTime()) return { ok: false, reason: 'expired_token' };
    return { ok: true, grant: g };
  }
}
