/** JSON over HTTP for provider adapters: data, or a typed failure (never a throw). */
import { createHmac } from 'node:crypto';
import type { ProviderResult } from './provider-adapter.js';

export async function callJson<T>(
  url: string,
  init: RequestInit,
  errorOf: (body: unknown, res: Response) => { errorType: string; message: string },
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
  return { ok: false, status: res.status, ...errorOf(body, res) };
}

export const formPost = (
  body: Record<string, string>,
  headers: Record<string, string> = {},
): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(body).toString(),
});

/** RFC 6749 error bodies ({error, error_description}). */
export const rfcErrorOf = (body: unknown, res: Response) => {
  const b = (body ?? {}) as { error?: string; error_description?: string };
  return {
    errorType: b.error ?? (res.status === 429 ? 'rate_limit' : 'system'),
    message: b.error_description ?? res.statusText,
  };
};

/**
 * Settings for a provider: the real service when its client id is configured,
 * otherwise its simulator mounted on this server under /sim/<provider>.
 */
export function simulatorClientSecret(sessionSecret: string, provider: string): string {
  return createHmac('sha256', sessionSecret).update(`${provider}-simulator-client`).digest('base64url');
}
