/*
 * Omron partner API client (or its simulator at /sim/omron): IdentityServer
 * OAuth with client credentials in the body, id_token.sub = Omron user, and
 * POST /api/measurement. Omron has no device list: the "device" shown is the
 * monitor or scale that sent the latest reading.
 */
import { DEVICE_TYPE_LABEL } from '@trialwear/contract';
import { addDays, utcDate } from '@trialwear/zone';
import type { Config } from '../../config.js';
import type { Secrets } from '../../security/secrets.js';
import {
  bearerHeader,
  callAnswer,
  callJson,
  formPost,
  rfcErrorOf,
  simulatorClientSecret,
} from '../http-json.js';
import { createOAuthTokenClient } from '../oauth-client.js';
import type { DeviceEntry, ProviderClient, ProviderDataReader, ProviderSettings } from '../types.js';
import { omronRawQuery } from './readings.js';
import { omronSeries } from './series.js';

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

interface Reading {
  dateTimeLocal: string;
  deviceType: string;
}
interface MeasurementBody {
  status: number;
  reason?: string;
  result?: { bloodPressure?: Reading[]; weight?: Reading[] };
}

export function omronSettings(c: Config, secrets: Secrets): ProviderSettings {
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
}

const deviceOf = (r: Reading, deviceType: 'BLOOD_PRESSURE' | 'SCALE'): DeviceEntry => ({
  device: 'scale',
  // Omron's reading names only the model ('BP7450'): the kind of device is the name, the model its version.
  deviceName: DEVICE_TYPE_LABEL[deviceType],
  batteryLevel: null,
  battery: null,
  deviceVersion: r.deviceType,
  deviceType,
  lastSyncTime: r.dateTimeLocal,
  hasError: false,
  errorType: null,
});

const OMRON_TYPES = ['bloodpressure', 'weight'] as const;
/** A date, or the instant of the last reading of a truncated page (Omron's continuation, providers.md §2.4). */
const SINCE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z)?$/;

/**
 * Omron data: `measurement` is POST /api/measurement with a form body
 * (providers.md §2.4): since (a date), type, sortOrder, limit. Omron answers
 * its errors as HTTP 200 with a non-zero `status`: those become failures.
 * toSeries: one point per reading in each metric of its category (series.ts).
 */
function omronDataReader(s: ProviderSettings): ProviderDataReader {
  return {
    resources: ['measurement'],
    async read(accessToken, query) {
      const p = query.params;
      if (
        query.resource !== 'measurement' ||
        !SINCE.test(p.since ?? '') ||
        !(OMRON_TYPES as readonly string[]).includes(p.type ?? '') ||
        !['asc', 'desc'].includes(p.sortOrder ?? 'asc') ||
        !/^\d{1,4}$/.test(p.limit ?? '0')
      )
        return { ok: false, status: 400, errorType: 'validation', message: 'Unknown Omron query' };
      const form: Record<string, string> = {
        since: p.since!,
        type: p.type!,
        sortOrder: p.sortOrder ?? 'asc',
        ...(p.limit && p.limit !== '0' ? { limit: p.limit } : {}),
      };
      const r = await callAnswer(
        s.apiUrl,
        '/api/measurement',
        formPost(form, bearerHeader(accessToken)),
        rfcErrorOf,
      );
      if (!r.ok) return r;
      const body = r.data.body as MeasurementBody | null;
      if (body?.status !== 0)
        return { ok: false, status: 200, errorType: 'processing', message: body?.reason ?? 'Omron error' };
      // The form sent is part of what was asked: the raw page shows it.
      return { ok: true, data: { ...r.data, request: `POST /api/measurement ${new URLSearchParams(form)}` } };
    },
    toSeries: omronSeries,
    rawQuery: omronRawQuery,
    localTime: false,
  };
}

export function createOmronClient(s: ProviderSettings): ProviderClient {
  return {
    provider: 'omron',
    linkProvider: 'omron',
    brand: 'Omron',
    catalogDevice: 'Omron Blood Pressure Monitor',
    settings: s,
    oauth: createOAuthTokenClient<OmronTokenBody>(s, {
      tokenPath: '/connect/token',
      revokePath: '/connect/revocation',
      clientAuth: 'body',
      errorOf: rfcErrorOf,
      toTokens: (t) => ({ ...t, providerUserId: subOf(t.id_token) }),
      refreshExtras: (settings) => ({ redirect_uri: settings.redirectUri }),
      revokeExtras: { token_type_hint: 'refresh_token' },
    }),
    async devices(accessToken, now) {
      const since = addDays(utcDate(now), -30);
      const r = await callJson<MeasurementBody>(
        `${s.apiUrl}/api/measurement`,
        formPost({ since, sortOrder: 'desc', limit: '1' }, bearerHeader(accessToken)),
        rfcErrorOf,
      );
      if (!r.ok) return r;
      if (r.data?.status !== 0)
        return { ok: false, status: 200, errorType: 'processing', message: r.data?.reason ?? 'Omron error' };
      const bp = r.data.result?.bloodPressure?.[0];
      const weight = r.data.result?.weight?.[0];
      return {
        ok: true,
        data: [
          ...(bp ? [deviceOf(bp, 'BLOOD_PRESSURE')] : []),
          ...(weight ? [deviceOf(weight, 'SCALE')] : []),
        ],
      };
    },
    needsRefresh: (f) => f.status === 401,
    data: omronDataReader(s),
  };
}
