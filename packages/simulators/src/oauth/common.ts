/** Helpers the OAuth-2.0 simulators share (standard RFC 6749 error bodies, id derivation, client auth). */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { OAuthClient } from './oauth-store.js';

export const rfcError = (error: string, description: string) => ({ error, error_description: description });

/** A stable pseudo-random id for a simulated account, derived from the consent's state. */
export function accountFromSeed(seed: string, length = 24): string {
  return createHash('sha256').update(`account:${seed}`).digest('hex').slice(0, length);
}

/**
 * How a client without HTTP Basic names itself in the form body: `public` is
 * Fitbit's client apps (PKCE, client_id only, providers.md §1.2), `secret` is
 * client_id and client_secret (Omron, Dexcom).
 */
export type ClientAuth = 'public' | 'secret';

/** The client a token or revocation request authenticates as: HTTP Basic, else the body as `style` says. */
export function authenticateClient(
  request: FastifyRequest,
  clients: Map<string, OAuthClient>,
  style: ClientAuth,
): OAuthClient | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    const c = clients.get(id ?? '');
    return c && c.clientSecret === secret ? c : null;
  }
  const b = (request.body ?? {}) as Record<string, string>;
  const c = clients.get(b.client_id ?? '') ?? null;
  if (style === 'public') return b.client_id ? c : null;
  return c && c.clientSecret === b.client_secret ? c : null;
}

/** An unsigned JWT-shaped token (header.payload.) carrying `sub`, as an OpenID id_token would. */
export function idToken(sub: string, aud: string, nowMs: number): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub, aud, iss: 'simulator', iat: Math.floor(nowMs / 1000) })}.`;
}

/**
 * Who signs in on the simulated authorize page. A real provider knows its
 * user from the login; the simulator stands one person behind each portal
 * participant: the state's first segment (the portal's state starts with the
 * participant id), so consenting again signs in the same account, as the
 * same person would. A test can sign in as someone else by posting another
 * `account` with the form.
 */
export function personSeed(q: { state?: string; login_hint?: string }): string {
  return (q.state ?? q.login_hint ?? 'anonymous').split('.')[0] ?? 'anonymous';
}
