/*
 * Fitbit Web API client (or its simulator at /sim/fitbit): authorization
 * code with PKCE, Basic client auth, rotating refresh tokens, revoke, and the
 * devices list. Fitbit's error bodies: {errors:[{errorType, message}]}.
 */
import { parseFitbitResourcePath } from '@trialwear/contract';
import type { Config } from '../../config.js';
import type { Secrets } from '../../security/secrets.js';
import { bearer, callAnswer, callJson, type ErrorOf, simulatorClientSecret } from '../http-json.js';
import { createOAuthTokenClient } from '../oauth-client.js';
import type { DeviceEntry, ProviderClient, ProviderDataReader, ProviderSettings } from '../types.js';
import { legacyToSeries } from './legacy-series.js';
import { fitbitRawQuery } from './raw-query.js';

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
  // Breathing rate (/br) is on the tracker allow-list.
  'respiratory_rate',
  // Skin temperature (/temp/skin), a stored metric (issue #11).
  'temperature',
];

const fitbitErrorOf: ErrorOf = (body, res) => {
  const e = (body as { errors?: Array<{ errorType?: string; message?: string }> } | null)?.errors?.[0];
  return {
    errorType: e?.errorType ?? (res.status === 429 ? 'rate_limit' : 'system'),
    message: e?.message ?? res.statusText,
  };
};

interface FitbitTokenBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  user_id: string;
}

interface FitbitDevice {
  battery: string;
  batteryLevel: number;
  deviceVersion: string;
  lastSyncTime: string;
  type: 'TRACKER' | 'SCALE';
}

/** The real service when FITBIT_CLIENT_ID is set, otherwise the simulator mounted on this server. */
export function fitbitSettings(c: Config, secrets: Secrets): ProviderSettings {
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
}

/**
 * Fitbit data: `tracker` reads one resource path of the contract's allow-list
 * (`params.path`, the part after /user/-, checked again here so nothing else
 * can be built into a URL); `profile` reads the user's profile (time zone).
 */
function fitbitDataReader(s: ProviderSettings): ProviderDataReader {
  return {
    resources: ['tracker', 'profile'],
    toSeries: legacyToSeries,
    rawQuery: fitbitRawQuery,
    localTime: true,
    async read(accessToken, query) {
      let path: string;
      if (query.resource === 'profile') path = '/1/user/-/profile.json';
      else {
        const r = query.resource === 'tracker' ? parseFitbitResourcePath(query.params.path ?? '') : null;
        if (!r || !r.api)
          return { ok: false, status: 400, errorType: 'validation', message: 'Unknown resource path' };
        path = r.api;
      }
      return callAnswer(s.apiUrl, path, bearer(accessToken), fitbitErrorOf);
    },
  };
}

export function createFitbitClient(s: ProviderSettings): ProviderClient {
  return {
    provider: 'fitbit',
    linkProvider: 'fitbit',
    brand: 'Fitbit',
    catalogDevice: 'Fitbit Smartwatches & Trackers',
    settings: s,
    oauth: createOAuthTokenClient<FitbitTokenBody>(s, {
      tokenPath: '/oauth2/token',
      revokePath: '/oauth2/revoke',
      clientAuth: 'basic',
      errorOf: fitbitErrorOf,
      toTokens: (t) => ({ ...t, providerUserId: t.user_id }),
    }),
    async devices(accessToken) {
      const r = await callJson<FitbitDevice[]>(
        `${s.apiUrl}/1/user/-/devices.json`,
        bearer(accessToken),
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
            // Fitbit names the model only ('Sense 2'); the brand makes it a name people know.
            deviceName: /^fitbit\b/i.test(d.deviceVersion) ? d.deviceVersion : `Fitbit ${d.deviceVersion}`,
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
    data: fitbitDataReader(s),
  };
}
