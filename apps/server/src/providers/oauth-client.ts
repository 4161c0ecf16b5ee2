/*
 * The OAuth 2.0 token calls every provider makes (RFC 6749): authorization
 * code exchange, refresh, revoke. Written once; a provider states only what
 * differs — its endpoints, how the client authenticates (HTTP Basic as
 * Fitbit wants, or client_id/client_secret in the body as Omron and Dexcom
 * want), extra form fields, its error body format and how its token answer
 * names the provider's user.
 */
import { callJson, type ErrorOf, formPost } from './http-json.js';
import type { ProviderResult, ProviderSettings, ProviderTokens } from './types.js';

export interface OAuthTokenClient {
  exchangeCode(code: string, codeVerifier: string): Promise<ProviderResult<ProviderTokens>>;
  refresh(refreshToken: string): Promise<ProviderResult<ProviderTokens>>;
  /** null: the provider has no revoke endpoint; the link is dropped locally. */
  revoke: ((token: string) => Promise<ProviderResult<unknown>>) | null;
}

export interface OAuthDialect<Body> {
  /** A path under the settings' apiUrl, or an absolute URL (Google's token host is not its API host). */
  tokenPath: string;
  /** null: no revoke endpoint. */
  revokePath: string | null;
  clientAuth: 'basic' | 'body';
  errorOf: ErrorOf;
  /** The provider's token answer → our tokens (with the provider's user id when it gives one). */
  toTokens(body: Body): ProviderTokens;
  /** Fields some providers want on a refresh besides the token (Omron: redirect_uri). */
  refreshExtras?: (s: ProviderSettings) => Record<string, string>;
  /** Fields of a revoke besides the token (Omron: token_type_hint). */
  revokeExtras?: Record<string, string>;
}

export function createOAuthTokenClient<Body>(s: ProviderSettings, d: OAuthDialect<Body>): OAuthTokenClient {
  const auth: { fields: Record<string, string>; headers: Record<string, string> } =
    d.clientAuth === 'basic'
      ? {
          fields: {},
          headers: {
            authorization: `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString('base64')}`,
          },
        }
      : { fields: { client_id: s.clientId, client_secret: s.clientSecret }, headers: {} };
  const urlOf = (path: string) => (/^https?:\/\//.test(path) ? path : `${s.apiUrl}${path}`);
  const post = <T>(path: string, fields: Record<string, string>) =>
    callJson<T>(urlOf(path), formPost({ ...fields, ...auth.fields }, auth.headers), d.errorOf);
  const tokens = async (fields: Record<string, string>): Promise<ProviderResult<ProviderTokens>> => {
    const r = await post<Body>(d.tokenPath, fields);
    return r.ok ? { ok: true, data: d.toTokens(r.data) } : r;
  };
  const revokePath = d.revokePath;
  return {
    exchangeCode: (code, codeVerifier) =>
      tokens({
        grant_type: 'authorization_code',
        code,
        redirect_uri: s.redirectUri,
        ...(s.pkce ? { code_verifier: codeVerifier } : {}),
      }),
    refresh: (refreshToken) =>
      tokens({ grant_type: 'refresh_token', refresh_token: refreshToken, ...d.refreshExtras?.(s) }),
    revoke: revokePath ? (token) => post(revokePath, { token, ...d.revokeExtras }) : null,
  };
}
