/*
 * Fitbit through the Google Health API (v4), the legacy Fitbit Web API's
 * successor (issue #13; google-health-api.md). The same ProviderClient as
 * the legacy back end, for provider `fitbit`, so everything above it (device
 * cards, data pages, overview, local summary, sync, export) works the same:
 *
 * - OAuth: Google's authorize page with offline access, forced consent and
 *   PKCE; client id/secret in the form body; refresh tokens are not rotated
 *   (the stored one is kept, token-store.ts); revoke at Google's endpoint.
 *   Google's token answer names no user: the identity resource gives the
 *   `healthUserId` (the link's provider user id, and the key of webhook
 *   notifications) and the `legacyUserId` (to match a legacy link).
 * - Devices: the paired devices (battery, type, last sync), sync times
 *   given in the user's zone as the legacy list did.
 * - Data: `read` makes, for each allow-listed tracker path, the Google
 *   calls that replace it (google-reads.ts) and answers Google's own bodies
 *   (`{ calls: [{ request, sent?, body }] }`, the raw pages show them);
 *   `toSeries` maps those bodies directly to normalized series
 *   (series/, decision 030). `profile` answers the zone and its
 *   current offset from the settings (`{ user: { timezone, offsetFromUTCMillis } }`).
 */

import { parseFitbitResourcePath } from '@trialwear/contract';
import { isKnownZone, wallClock } from '@trialwear/zone';
import { bearer, callJson } from '../../http-json.js';
import { createOAuthTokenClient } from '../../oauth-client.js';
import type {
  DeviceEntry,
  ProviderClient,
  ProviderDataReader,
  ProviderResult,
  ProviderTokens,
} from '../../types.js';
import { fitbitRawQuery } from '../raw-query.js';
import { GoogleCallFailed, GoogleHealthCalls, type GoogleSettings, googleErrorOf } from './google-http.js';
import { profileAnswer, readTracker, UnsupportedResource } from './google-reads.js';
import { googleToSeries } from './series/index.js';
import type { GoogleHealthSettings } from './settings.js';

interface GoogleTokenBody {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope?: string;
  token_type: string;
}

interface Identity {
  healthUserId?: string;
  legacyUserId?: string;
}

interface PairedDevice {
  name?: string;
  deviceType?: 'TRACKER' | 'SCALE' | 'DEVICE_TYPE_UNSPECIFIED';
  batteryStatus?: string;
  batteryLevel?: number;
  lastSyncTime?: string;
  deviceVersion?: string;
}

function googleDataReader(s: GoogleHealthSettings): ProviderDataReader {
  return {
    resources: ['tracker', 'profile'],
    rawQuery: fitbitRawQuery,
    localTime: true,
    async read(accessToken, query) {
      const calls = new GoogleHealthCalls(s.apiUrl, accessToken);
      try {
        let body: unknown;
        if (query.resource === 'profile') body = await profileAnswer(calls);
        else {
          const path = query.params.path ?? '';
          const r = query.resource === 'tracker' ? parseFitbitResourcePath(path) : null;
          if (!r || !r.api)
            return { ok: false, status: 400, errorType: 'validation', message: 'Unknown resource path' };
          await readTracker(calls, path, r);
          body = { calls: calls.answered };
        }
        return { ok: true, data: { request: calls.made.join(' ; '), status: 200, headers: {}, body } };
      } catch (err) {
        if (err instanceof GoogleCallFailed) return err.failure;
        if (err instanceof UnsupportedResource)
          return { ok: false, status: 400, errorType: 'unsupported', message: err.message };
        throw err;
      }
    },
    toSeries: googleToSeries,
  };
}

export function createGoogleHealthClient(s: GoogleHealthSettings): ProviderClient {
  const tokens = createOAuthTokenClient<GoogleTokenBody>(s, {
    tokenPath: s.tokenUrl,
    revokePath: s.revokeUrl,
    clientAuth: 'body',
    errorOf: googleErrorOf,
    toTokens: (t) => ({ ...t, providerUserId: null }),
  });
  const identity = (accessToken: string) =>
    callJson<Identity>(`${s.apiUrl}/v4/users/me/identity`, bearer(accessToken), googleErrorOf);
  return {
    provider: 'fitbit',
    linkProvider: 'google_health',
    brand: 'Fitbit',
    catalogDevice: 'Fitbit Smartwatches & Trackers',
    settings: s,
    oauth: {
      ...tokens,
      // The code exchange, then who consented: the token answer names nobody (§2.3, §2.6).
      async exchangeCode(code, codeVerifier): Promise<ProviderResult<ProviderTokens>> {
        const t = await tokens.exchangeCode(code, codeVerifier);
        if (!t.ok) return t;
        const id = await identity(t.data.access_token);
        if (!id.ok) return id;
        return {
          ok: true,
          data: {
            ...t.data,
            providerUserId: id.data?.healthUserId ?? null,
            legacyUserId: id.data?.legacyUserId ?? null,
          },
        };
      },
    },
    async devices(accessToken) {
      const calls = new GoogleHealthCalls(s.apiUrl, accessToken);
      try {
        const r = await calls.get<{ pairedDevices?: PairedDevice[] }>(
          '/v4/users/me/pairedDevices?pageSize=100',
        );
        const list = r.pairedDevices ?? [];
        // Legacy cards show the last sync in the participant's local time: the zone from the settings.
        const settings = list.length ? await calls.get<GoogleSettings>('/v4/users/me/settings') : {};
        const zone = settings.timeZone && isKnownZone(settings.timeZone) ? settings.timeZone : 'UTC';
        return {
          ok: true,
          data: list.map((d): DeviceEntry => {
            const version = d.deviceVersion ?? 'Fitbit';
            const synced = d.lastSyncTime ? Date.parse(d.lastSyncTime) : Number.NaN;
            return {
              device: d.deviceType === 'SCALE' ? 'scale' : 'fitness tracker',
              batteryLevel: typeof d.batteryLevel === 'number' ? d.batteryLevel : null,
              battery: d.batteryStatus ?? null,
              deviceName: /^(fitbit|google|pixel)\b/i.test(version) ? version : `Fitbit ${version}`,
              deviceVersion: version,
              deviceType: d.deviceType === 'SCALE' ? 'SCALE' : 'TRACKER',
              lastSyncTime: Number.isFinite(synced)
                ? `${wallClock(zone, synced)}.${String(synced % 1000).padStart(3, '0')}`
                : null,
              hasError: false,
              errorType: null,
            };
          }),
        };
      } catch (err) {
        if (err instanceof GoogleCallFailed) return err.failure;
        throw err;
      }
    },
    // Google: 401 UNAUTHENTICATED for an expired (or otherwise invalid) access token (§4.2).
    needsRefresh: (f) => f.status === 401,
    data: googleDataReader(s),
  };
}
