/*
 * Fitbit Web API adapter (or its simulator at /sim/fitbit): authorization
 * code with PKCE, Basic client auth, rotating refresh tokens, revoke, and the
 * devices list. Fitbit's error bodies: {errors:[{errorType, message}]}.
 */
import { callJson, formPost, simulatorClientSecret } from '../devices/http-json.js';
import type {
  DeviceEntry,
  ProviderAdapter,
  ProviderSettings,
  ProviderTokens,
} from '../devices/provider-adapter.js';

export const FITBIT_SIM_PREFIX = '/sim/fitbit';
const SCOPES = [
  'activity',
  'heartrate',
  'sleep',
  'weight',
  'profile',
  'settings',
  'oxygen_saturation',
  'cardio_fitness',
  'nutrition',
];

const fitbitErrorOf = (body: unknown, res: Response) => {
  const e = (body as { errors?: Array<{ errorType?: string; message?: string }> } | null)?.errors?.[0];
  return {
    errorType: e?.errorType ?? (res.status === 429 ? 'rate_limit' : 'system'),
    message: e?.message ?? res.statusText,
  };
};

const basic = (s: ProviderSettings) => ({
  authorization: `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString('base64')}`,
});

interface FitbitTokenBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  user_id: string;
}
const toTokens = (t: FitbitTokenBody): ProviderTokens => ({ ...t, providerUserId: t.user_id });

interface FitbitDevice {
  battery: string;
  batteryLevel: number;
  deviceVersion: string;
  lastSyncTime: string;
  type: 'TRACKER' | 'SCALE';
}

export const fitbitAdapter: ProviderAdapter = {
  provider: 'fitbit',
  brand: 'Fitbit',
  catalogDevice: 'Fitbit Smartwatches & Trackers',
  consentPage: '/PAFitbitConsentPage',
  settings({ config: c, secrets }) {
    const redirectUri = `${c.publicUrl}/fitbit-callback`;
    if (c.FITBIT_CLIENT_ID) {
      return {
        simulated: false,
        clientId: c.FITBIT_CLIENT_ID,
        clientSecret: c.FITBIT_CLIENT_SECRET ?? '',
        authorizeUrl: c.FITBIT_AUTHORIZE_URL,
        apiUrl: c.FITBIT_API_URL.replace(/\/$/, ''),
        redirectUri,
        scopes: SCOPES,
        pkce: true,
      };
    }
    return {
      simulated: true,
      clientId: 'TRIALWEARSIM',
      clientSecret: simulatorClientSecret(secrets.sessionSecret, 'fitbit'),
      authorizeUrl: `${c.publicUrl}${FITBIT_SIM_PREFIX}/oauth2/authorize`,
      apiUrl: `${c.publicUrl}${FITBIT_SIM_PREFIX}`,
      redirectUri,
      scopes: SCOPES,
      pkce: true,
    };
  },
  async exchangeCode(s, code, codeVerifier) {
    const r = await callJson<FitbitTokenBody>(
      `${s.apiUrl}/oauth2/token`,
      formPost(
        { grant_type: 'authorization_code', code, redirect_uri: s.redirectUri, code_verifier: codeVerifier },
        basic(s),
      ),
      fitbitErrorOf,
    );
    return r.ok ? { ok: true, data: toTokens(r.data) } : r;
  },
  async refresh(s, refreshToken) {
    const r = await callJson<FitbitTokenBody>(
      `${s.apiUrl}/oauth2/token`,
      formPost({ grant_type: 'refresh_token', refresh_token: refreshToken }, basic(s)),
      fitbitErrorOf,
    );
    return r.ok ? { ok: true, data: toTokens(r.data) } : r;
  },
  revoke: (s, token) => callJson(`${s.apiUrl}/oauth2/revoke`, formPost({ token }, basic(s)), fitbitErrorOf),
  async devices(s, accessToken) {
    const r = await callJson<FitbitDevice[]>(
      `${s.apiUrl}/1/user/-/devices.json`,
      { headers: { authorization: `Bearer ${accessToken}` } },
      fitbitErrorOf,
    );
    if (!r.ok) return r;
    if (!Array.isArray(r.data))
      return { ok: false, status: 200, errorType: 'parse', message: 'Unexpected device list' };
    return {
      ok: true,
      data: r.data.map(
        (d): DeviceEntry => ({
          device: d.type === 'SCALE' ? 'scale' : 'fitness tracker',
          batteryLevel: d.batteryLevel,
          battery: d.battery,
          deviceVersion: d.deviceVersion,
          deviceType: d.type,
          lastSyncTime: d.lastSyncTime,
          hasError: false,
          errorType: null,
        }),
      ),
    };
  },
  needsRefresh: (f) => f.errorType === 'expired_token',
};
