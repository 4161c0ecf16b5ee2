/** JSON over HTTP for provider clients: data, or a typed failure (never a throw). */
import { createHmac } from 'node:crypto';
import type { ProviderAnswer, ProviderResult } from './types.js';

export type ErrorOf = (body: unknown, res: Response) => { errorType: string; message: string };

export async function callJson<T>(
  url: string,
  init: RequestInit,
  errorOf: ErrorOf,
): Promise<ProviderResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    return { ok: false, status: 0, errorType: 'connection', message: (err as Error).message };
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    if (res.ok)
      return { ok: false, status: res.status, errorType: 'parse', message: 'Invalid JSON from provider' };
  }
  if (res.ok) return { ok: true, data: body as T };
  const retryAfter = Number(res.headers.get('retry-after'));
  return {
    ok: false,
    status: res.status,
    ...errorOf(body, res),
    ...(Number.isFinite(retryAfter) && retryAfter >= 0 && res.headers.has('retry-after')
      ? { retryAfterSeconds: retryAfter }
      : {}),
  };
}

/** Response headers worth keeping: the provider's rate-limit state and Retry-After. */
const KEPT_HEADER = /^(retry-after|fitbit-rate-limit-.*|x-ratelimit-.*|ratelimit-.*)$/i;

/**
 * A data read: like callJson, but on success the answer keeps the status and
 * the rate-limit headers beside the body (the raw pages show them), and
 * `request` names the path called without host or token.
 */
export async function callAnswer(
  baseUrl: string,
  pathAndQuery: string,
  init: RequestInit,
  errorOf: ErrorOf,
): Promise<ProviderResult<ProviderAnswer>> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${pathAndQuery}`, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    return { ok: false, status: 0, errorType: 'connection', message: (err as Error).message };
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    if (res.ok)
      return { ok: false, status: res.status, errorType: 'parse', message: 'Invalid JSON from provider' };
  }
  if (!res.ok) {
    const retryAfter = Number(res.headers.get('retry-after'));
    return {
      ok: false,
      status: res.status,
      ...errorOf(body, res),
      ...(res.headers.has('retry-after') && Number.isFinite(retryAfter) && retryAfter >= 0
        ? { retryAfterSeconds: retryAfter }
        : {}),
    };
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (KEPT_HEADER.test(k)) headers[k] = v;
  });
  return { ok: true, data: { request: pathAndQuery, status: res.status, headers, body } };
}

export const formPost = (
  body: Record<string, string>,
  headers: Record<string, string> = {},
): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(body).toString(),
});

export const bearerHeader = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
export const bearer = (accessToken: string): RequestInit => ({ headers: bearerHeader(accessToken) });

/** RFC 6749 error bodies ({error, error_description}). */
export const rfcErrorOf: ErrorOf = (body, res) => {
  const b = (body ?? {}) as { error?: string; error_description?: string };
  return {
    errorType: b.error ?? (res.status === 429 ? 'rate_limit' : 'system'),
    message: b.error_description ?? res.statusText,
  };
};

/**
 * The client secret the portal and its mounted simulator share when a
 * provider has no real credentials: derived from the session secret, so it is
 * stable across restarts and never configured by hand.
 */
export function simulatorClientSecret(sessionSecret: string, provider: string): string {
  return createHmac('sha256', sessionSecret).update(`${provider}-simulator-client`).digest('base64url');
}
