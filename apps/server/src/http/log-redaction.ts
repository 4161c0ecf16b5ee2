/*
 * Nothing that grants access may reach a log line: single-use link tokens
 * (password reset, sign-up, consent `t`), OAuth codes and states, keys,
 * passwords, session cookies and CSRF tokens. Request URLs are logged with
 * those query values replaced; headers and bodies are never logged, and
 * pino's redact removes the secret-bearing fields should an object holding
 * them be logged anyway.
 */
import type { FastifyRequest } from 'fastify';

/** Query parameters whose value is a secret (case-insensitive). */
const SECRET_PARAMS = new Set([
  'token',
  't',
  'code',
  'state',
  'key',
  // the participant account's email confirmation (/ParticipantLoginPage?verify=…, issue #14)
  'verify',
  'authcode',
  'access_token',
  'refresh_token',
  'id_token',
  'code_verifier',
  'client_secret',
  'password',
]);

export const REDACTED = '[REDACTED]';

/**
 * A query that may name a secret parameter: one of the names, or an escape (`%74oken`). Every other
 * query (`?page=1&pageSize=50`: most of them) is logged as it is without being taken apart.
 */
const MAY_NAME_A_SECRET = new RegExp(`(?:^|[?&;])(?:${[...SECRET_PARAMS].join('|')})(?:[=&#]|$)|%`, 'i');

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || !MAY_NAME_A_SECRET.test(url.slice(q))) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeURIComponentSafe(eq < 0 ? pair : pair.slice(0, eq));
      return eq >= 0 && SECRET_PARAMS.has(name.toLowerCase()) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}${hash < 0 ? '' : url.slice(hash)}`;
}

function decodeURIComponentSafe(s: string) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The request as it appears in a log line: no headers, no body, secrets out of the URL. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    remoteAddress: req.ip,
  };
}

/** pino `redact` paths: belt and braces for objects that carry secrets by name. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
  '*.authCode',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
];
