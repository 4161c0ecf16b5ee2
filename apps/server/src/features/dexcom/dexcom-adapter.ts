/*
 * Dexcom API v3 adapter (or its simulator at /sim/dexcom): OAuth at
 * /v2/oauth2 (scope offline_access, client credentials in the body, 2-hour
 * tokens, single-use refresh tokens) and /v3/users/self/devices. Dexcom has
 * no revoke endpoint: participants revoke in their Dexcom account.
 */
import { callJson, formPost, rfcErrorOf, simulatorClientSecret } from '../devices/http-json.js';
import type { ProviderAdapter, ProviderTokens } from '../devices/provider-adapter.js';

export const DEXCOM_SIM_PREFIX = '/sim/dexcom';

interface DexcomTokenBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}
const toTokens = (t: DexcomTokenBody): ProviderTokens => ({ ...t, providerUserId: null });

interface DexcomDevices {
  userId: string;
  records: Array<{ lastUploadDate: string; transmitterGeneration: string; displayApp: string }>;
}

export const dexcomAdapter: ProviderAdapter = {
  provider: 'dexcom',
  brand: 'Dexcom',
  catalogDevice: 'Dexcom G7 CGM',
  consentPage: '/PAFitbitConsentPage',
  settings({ config: c, secrets }) {
    const redirectUri = `${c.publicUrl}/dexcom-callback`;
    const apiUrl = c.DEXCOM_CLIENT_ID
      ? c.DEXCOM_API_URL.replace(/\/$/, '')
      : `${c.publicUrl}${DEXCOM_SIM_PREFIX}`;
    return {
      simulated: !c.DEXCOM_CLIENT_ID,
      clientId: c.DEXCOM_CLIENT_ID ?? 'TRIALWEARSIM',
      clientSecret: c.DEXCOM_CLIENT_ID
        ? (c.DEXCOM_CLIENT_SECRET ?? '')
        : simulatorClientSecret(secrets.sessionSecret, 'dexcom'),
      authorizeUrl: `${apiUrl}/v2/oauth2/login`,
      apiUrl,
      redirectUri,
      scopes: ['offline_access'],
      pkce: false,
    };
  },
  async exchangeCode(s, code) {
    const r = await callJson<DexcomTokenBody>(
      `${s.apiUrl}/v2/oauth2/token`,
      formPost({
        grant_type: 'authorization_code',
        code,
        redirect_uri: s.redirectUri,
        client_id: s.clientId,
        client_secret: s.clientSecret,
      }),
      rfcErrorOf,
    );
    return r.ok ? { ok: true, data: toTokens(r.data) } : r;
  },
  async refresh(s, refreshToken) {
    const r = await callJson<DexcomTokenBody>(
      `${s.apiUrl}/v2/oauth2/token`,
      formPost({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: s.clientId,
        client_secret: s.clientSecret,
      }),
      rfcErrorOf,
    );
    return r.ok ? { ok: true, data: toTokens(r.data) } : r;
  },
  revoke: null,
  async devices(s, accessToken) {
    const r = await callJson<DexcomDevices>(
      `${s.apiUrl}/v3/users/self/devices`,
      { headers: { authorization: `Bearer ${accessToken}` } },
      rfcErrorOf,
    );
    if (!r.ok) return r;
    if (!Array.isArray(r.data?.records))
      return { ok: false, status: 200, errorType: 'parse', message: 'Unexpected device list' };
    return {
      ok: true,
      data: r.data.records.map((d) => ({
        device: 'glucose monitor' as const,
        batteryLevel: null,
        battery: null,
        deviceVersion: `${d.displayApp} (${d.transmitterGeneration})`,
        deviceType: 'CGM' as const,
        lastSyncTime: d.lastUploadDate,
        hasError: false,
        errorType: null,
      })),
    };
  },
  needsRefresh: (f) => f.status === 401,
};
