/*
 * The only module that talks to Fitbit (or its simulator) over the network.
 * Answers are either data or a typed failure carrying Fitbit's errorType,
 * so callers can refresh on expired_token and map the rest to error cards.
 */
import type { FitbitSettings } from './fitbit-config.js';

export interface FitbitTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  user_id: string;
}

export type FitbitFailure = {
  ok: false;
  status: number;
  errorType: string;
  message: string;
  retryAfter?: number;
};
export type FitbitResult<T> = { ok: true; data: T } | FitbitFailure;

async function parse<T>(res: Response): Promise<FitbitResult<T>> {
  const body = (await res.json().catch(() => null)) as {
    errors?: Array<{ errorType?: string; message?: string }>;
  } | null;
  if (res.ok) return { ok: true, data: body as T };
  const e = body?.errors?.[0];
  const retry = res.headers.get('retry-after');
  return {
    ok: false,
    status: res.status,
    errorType: e?.errorType ?? (res.status === 429 ? 'rate_limit' : 'system'),
    message: e?.message ?? res.statusText,
    ...(retry ? { retryAfter: Number(retry) } : {}),
  };
}

async function call<T>(url: string, init: RequestInit): Promise<FitbitResult<T>> {
  try {
    return await parse<T>(await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) }));
  } catch (err) {
    return { ok: false, status: 0, errorType: 'connection', message: (err as Error).message };
  }
}

const basic = (s: FitbitSettings) =>
  `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString('base64')}`;
const form = (s: FitbitSettings, body: Record<string, string>) => ({
  method: 'POST',
  headers: { authorization: basic(s), 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body).toString(),
});

export function exchangeCode(s: FitbitSettings, code: string, codeVerifier: string) {
  return call<FitbitTokens>(
    `${s.apiUrl}/oauth2/token`,
    form(s, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: s.redirectUri,
      code_verifier: codeVerifier,
    }),
  );
}

export function refreshTokens(s: FitbitSettings, refreshToken: string) {
  return call<FitbitTokens>(
    `${s.apiUrl}/oauth2/token`,
    form(s, { grant_type: 'refresh_token', refresh_token: refreshToken }),
  );
}

export function revokeToken(s: FitbitSettings, token: string) {
  return call<object>(`${s.apiUrl}/oauth2/revoke`, form(s, { token }));
}

export interface FitbitDevice {
  battery: string;
  batteryLevel: number;
  deviceVersion: string;
  id: string;
  lastSyncTime: string;
  type: 'TRACKER' | 'SCALE';
}

export function getDevices(s: FitbitSettings, accessToken: string) {
  return call<FitbitDevice[]>(`${s.apiUrl}/1/user/-/devices.json`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
}
