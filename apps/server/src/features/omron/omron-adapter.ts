/*
 * Omron partner API adapter (or its simulator at /sim/omron): IdentityServer
 * OAuth with client credentials in the body, id_token.sub = Omron user, and
 * POST /api/measurement. Omron has no device list: the "device" shown is the
 * monitor or scale that sent the latest reading.
 */
import { callJson, formPost, rfcErrorOf, simulatorClientSecret } from '../devices/http-json.js';
import type { DeviceEntry, ProviderAdapter, ProviderTokens } from '../devices/provider-adapter.js';

export const OMRON_SIM_PREFIX = '/sim/omron';
const SCOPES = ['openid', 'offline_access', 'bloodpressure', 'weight', 'activity'];

interface OmronTokenBody {
  id_token?: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** The Omron user id is the id_token's sub (providers.md §2.3). */
function subOf(idToken: string | undefined): string | null {
  try {
    return idToken
      ? (JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()).sub ?? null)
      : null;
  } catch {
    return null;
  }
}
const toTokens = (t: OmronTokenBody): ProviderTokens => ({ ...t, providerUserId: subOf(t.id_token) });

interface Reading {
  dateTimeLocal: string;
  deviceType: string;
}
interface MeasurementBody {
  status: number;
  reason?: string;
  result?: { bloodPressure?: Reading[]; weight?: Reading[] };
}

export const omronAdapter: ProviderAdapter = {
  provider: 'omron',
  brand: 'Omron',
  catalogDevice: 'Omron Blood Pressure Monitor',
  consentPage: '/OmronConsentPage',
  settings({ config: c, secrets }) {
    const redirectUri = `${c.publicUrl}/omron-callback`;
    if (c.OMRON_CLIENT_ID) {
      return {
        simulated: false,
        clientId: c.OMRON_CLIENT_ID,
        clientSecret: c.OMRON_CLIENT_SECRET ?? '',
        authorizeUrl: c.OMRON_AUTHORIZE_URL,
        apiUrl: c.OMRON_API_URL.replace(/\/$/, ''),
        redirectUri,
        scopes: SCOPES,
        pkce: false,
      };
    }
    return {
      simulated: true,
      clientId: 'TRIALWEARSIM',
      clientSecret: simulatorClientSecret(secrets.sessionSecret, 'omron'),
      authorizeUrl: `${c.publicUrl}${OMRON_SIM_PREFIX}/connect/authorize`,
      apiUrl: `${c.publicUrl}${OMRON_SIM_PREFIX}`,
      redirectUri,
      scopes: SCOPES,
      pkce: false,
    };
  },
  async exchangeCode(s, code) {
    const r = await callJson<OmronTokenBody>(
      `${s.apiUrl}/connect/token`,
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
    const r = await callJson<OmronTokenBody>(
      `${s.apiUrl}/connect/token`,
      formPost({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: s.clientId,
        client_secret: s.clientSecret,
        redirect_uri: s.redirectUri,
      }),
      rfcErrorOf,
    );
    return r.ok ? { ok: true, data: toTokens(r.data) } : r;
  },
  revoke: (s, token) =>
    callJson(
      `${s.apiUrl}/connect/revocation`,
      formPost({
        token,
        token_type_hint: 'refresh_token',
        client_id: s.clientId,
        client_secret: s.clientSecret,
      }),
      rfcErrorOf,
    ),
  async devices(s, accessToken, now) {
    const since = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    const r = await callJson<MeasurementBody>(
      `${s.apiUrl}/api/measurement`,
      formPost({ since, sortOrder: 'desc', limit: '1' }, { authorization: `Bearer ${accessToken}` }),
      rfcErrorOf,
    );
    if (!r.ok) return r;
    if (r.data?.status !== 0)
      return { ok: false, status: 200, errorType: 'processing', message: r.data?.reason ?? 'Omron error' };
    const entries: DeviceEntry[] = [];
    const bp = r.data.result?.bloodPressure?.[0];
    const weight = r.data.result?.weight?.[0];
    if (bp)
      entries.push({
        device: 'scale',
        batteryLevel: null,
        battery: null,
        deviceVersion: bp.deviceType,
        deviceType: 'BLOOD_PRESSURE',
        lastSyncTime: bp.dateTimeLocal,
        hasError: false,
        errorType: null,
      });
    if (weight)
      entries.push({
        device: 'scale',
        batteryLevel: null,
        battery: null,
        deviceVersion: weight.deviceType,
        deviceType: 'SCALE',
        lastSyncTime: weight.dateTimeLocal,
        hasError: false,
        errorType: null,
      });
    return { ok: true, data: entries };
  },
  needsRefresh: (f) => f.status === 401,
};
