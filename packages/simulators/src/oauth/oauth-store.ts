/*
 * In-memory OAuth 2.0 authorization server state shared by the provider
 * simulators: authorization codes (10 minutes, single use, PKCE), access
 * tokens with a lifetime, refresh tokens that rotate (the old one stops
 * working; reusing it within a short window is a concurrent refresh → 409),
 * and revocation of everything a user granted to a client.
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
}

export type OAuthFailure =
  | { kind: 'invalid_request'; message: string }
  | { kind: 'invalid_client'; message: string }
  | { kind: 'invalid_grant'; message: string }
  | { kind: 'conflict'; message: string };

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string;
  userId: string;
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
    private readonly accessTtlSeconds: number,
    private readonly tokenPrefix: string,
  ) {}

  private token(kind: string) {
    return `${this.tokenPrefix}.${kind}.${randomBytes(24).toString('base64url')}`;
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
      return { kind: 'invalid_grant', message: `Authorization code invalid: ${p.code}` };
    }
    if (grant.clientId !== p.clientId)
      return { kind: 'invalid_grant', message: 'Authorization code was issued to another client' };
    if (grant.redirectUri && p.redirectUri !== grant.redirectUri)
      return { kind: 'invalid_grant', message: 'Redirect URI mismatch' };
    if (grant.codeChallenge) {
      if (!p.codeVerifier) return { kind: 'invalid_request', message: 'Missing parameters: code_verifier' };
      const computed =
        grant.codeChallengeMethod === 'S256'
          ? createHash('sha256').update(p.codeVerifier).digest('base64url')
          : p.codeVerifier;
      if (computed !== grant.codeChallenge)
        return { kind: 'invalid_grant', message: 'Invalid code_verifier' };
    }
    return this.issue(grant.clientId, grant.userId, grant.scope);
  }

  private issue(clientId: string, userId: string, scope: string): IssuedTokens {
    const accessToken = this.token('at');
    const refreshToken = this.token('rt');
    this.access.set(accessToken, {
      token: accessToken,
      clientId,
      userId,
      scope,
      expiresAt: this.clock.now().getTime() + this.accessTtlSeconds * 1000,
    });
    this.refresh.set(refreshToken, { token: refreshToken, clientId, userId, scope });
    return { accessToken, refreshToken, expiresIn: this.accessTtlSeconds, scope, userId };
  }

  refreshTokens(p: { refreshToken: string; clientId: string }): IssuedTokens | OAuthFailure {
    const grant = this.refresh.get(p.refreshToken);
    if (!grant || grant.clientId !== p.clientId)
      return { kind: 'invalid_grant', message: `Refresh token invalid: ${p.refreshToken}` };
    const now = this.clock.now().getTime();
    if (grant.spentAt !== undefined) {
      return now - grant.spentAt < CONCURRENT_REFRESH_WINDOW_MS
        ? {
            kind: 'conflict',
            message: 'Request conflict due to multiple clients attempting to refresh the same access token',
          }
        : { kind: 'invalid_grant', message: `Refresh token invalid: ${p.refreshToken}` };
    }
    grant.spentAt = now; // rotation: this refresh token is spent
    return this.issue(grant.clientId, grant.userId, grant.scope);
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
