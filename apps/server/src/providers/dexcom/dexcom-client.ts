/*
 * Dexcom API v3 client (or its simulator at /sim/dexcom): OAuth at
 * /v2/oauth2 (scope offline_access, client credentials in the body, 2-hour
 * tokens, single-use refresh tokens) and /v3/users/self/devices. Dexcom has
 * no revoke endpoint: participants revoke in their Dexcom account.
 */

import { DEXCOM_RESOURCES } from '@trialwear/contract';
import type { Config } from '../../config.js';
import type { Secrets } from '../../security/secrets.js';
import { bearer, callAnswer, callJson, rfcErrorOf, simulatorClientSecret } from '../http-json.js';
import { createOAuthTokenClient } from '../oauth-client.js';
import type { ProviderClient, ProviderDataReader, ProviderSettings } from '../types.js';
import { dexcomSeries } from './series.js';
import { dexcomRawQuery } from './windows.js';

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

const DEXCOM_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
/** Resources read over a window (startDate/endDate, UTC without offset, at most 30 days: providers.md §3.3). */
const WINDOWED = new Set(['egvs', 'calibrations', 'events']);

/**
 * Dexcom v3 data: one of the contract's DEXCOM_RESOURCES, windowed ones with
 * startDate and endDate. toSeries: a window's records as `egv`,
 * `calibrations` or `events` points (series.ts).
 */
function dexcomDataReader(s: ProviderSettings): ProviderDataReader {
  return {
    resources: DEXCOM_RESOURCES,
    async read(accessToken, query) {
      if (!(DEXCOM_RESOURCES as readonly string[]).includes(query.resource))
        return { ok: false, status: 400, errorType: 'validation', message: 'Unknown Dexcom resource' };
      let path = `/v3/users/self/${query.resource}`;
      if (WINDOWED.has(query.resource)) {
        const { startDate = '', endDate = '' } = query.params;
        if (!DEXCOM_TIME.test(startDate) || !DEXCOM_TIME.test(endDate))
          return { ok: false, status: 400, errorType: 'validation', message: 'Invalid Dexcom window' };
        path += `?${new URLSearchParams({ startDate, endDate })}`;
      }
      return callAnswer(s.apiUrl, path, bearer(accessToken), rfcErrorOf);
    },
    toSeries: dexcomSeries,
    rawQuery: dexcomRawQuery,
    localTime: false,
  };
}

export function createDexcomClient(s: ProviderSettings): ProviderClient {
  return {
    provider: 'dexcom',
    linkProvider: 'dexcom',
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
    data: dexcomDataReader(s),
  };
}
