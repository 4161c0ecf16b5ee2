/*
 * Dexcom API v3 client (or its simulator at /sim/dexcom): OAuth at
 * /v2/oauth2 (scope offline_access, client credentials in the body, 2-hour
 * tokens, single-use refresh tokens) and /v3/users/self/devices. Dexcom has
 * no revoke endpoint: participants revoke in their Dexcom account.
 */
import type { Config } from '../../config.js';
import type { Secrets } from '../../security/secrets.js';
import { bearer, callJson, rfcErrorOf, simulatorClientSecret } from '../http-json.js';
import { createOAuthTokenClient } from '../oauth-client.js';
import type { ProviderClient, ProviderSettings } from '../types.js';

export const DEXCOM_SIM_PREFIX = '/sim/dexcom';

interface DexcomTokenBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

interface DexcomDevices {
  userId: string;
  records: Array<{
    lastUploadDate: string;
    transmitterGeneration: string;
    displayApp: string;
    displayDevice?: string;
  }>;
}

export function dexcomSettings(c: Config, secrets: Secrets): ProviderSettings {
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
    redirectUri: `${c.publicUrl}/dexcom-callback`,
    scopes: ['offline_access'],
    pkce: false,
  };
}

export function createDexcomClient(s: ProviderSettings): ProviderClient {
  return {
    provider: 'dexcom',
    brand: 'Dexcom',
    catalogDevice: 'Dexcom G7 CGM',
    settings: s,
    oauth: createOAuthTokenClient<DexcomTokenBody>(s, {
      tokenPath: '/v2/oauth2/token',
      revokePath: null,
      clientAuth: 'body',
      errorOf: rfcErrorOf,
      toTokens: (t) => ({ ...t, providerUserId: null }),
    }),
    async devices(accessToken) {
      const r = await callJson<DexcomDevices>(
        `${s.apiUrl}/v3/users/self/devices`,
        bearer(accessToken),
        rfcErrorOf,
      );
      if (!r.ok) return r;
      if (!Array.isArray(r.data?.records))
        return { ok: false, status: 200, errorType: 'parse', message: 'Unexpected device list' };
      return {
        ok: true,
        data: r.data.records.map((d) => ({
          device: 'glucose monitor' as const,
          deviceName: `Dexcom ${d.transmitterGeneration.toUpperCase()}`,
          batteryLevel: null,
          battery: null,
          deviceVersion: `${d.displayApp} app${d.displayDevice ? ` on ${d.displayDevice}` : ''}`,
          deviceType: 'CGM' as const,
          lastSyncTime: d.lastUploadDate,
          hasError: false,
          errorType: null,
        })),
      };
    },
    needsRefresh: (f) => f.status === 401,
    data: null,
  };
}
