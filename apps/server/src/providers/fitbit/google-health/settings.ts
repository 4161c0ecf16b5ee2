/*
 * Where the Google Health back end of Fitbit talks to: Google's OAuth hosts
 * and health.googleapis.com when GOOGLE_HEALTH_CLIENT_ID is set, otherwise
 * the Google Health simulator mounted on this server at /sim/google-health.
 */
import type { Config } from '../../../config.js';
import type { Secrets } from '../../../security/secrets.js';
import { simulatorClientSecret } from '../../http-json.js';
import type { ProviderSettings } from '../../types.js';

export const GOOGLE_HEALTH_SIM_PREFIX = '/sim/google-health';

const SCOPE = 'https://www.googleapis.com/auth/googlehealth.';
/**
 * The read scopes the portal needs (google-health-api.md §2.5): activity
 * (steps … VO2 max), health metrics (heart rate, HRV, SpO2, breathing rate,
 * weight, body fat, height), sleep, settings (time zone, paired devices),
 * nutrition (the Foods pages' calories in and water).
 */
export const GOOGLE_HEALTH_SCOPES = [
  'activity_and_fitness.readonly',
  'health_metrics_and_measurements.readonly',
  'sleep.readonly',
  'settings.readonly',
  'nutrition.readonly',
].map((s) => `${SCOPE}${s}`);

/**
 * A refresh token only with offline access, and only on a consent screen:
 * forced, so a participant who granted access before still gets one (§2.2).
 */
const AUTHORIZE_EXTRAS = { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' };

export interface GoogleHealthSettings extends ProviderSettings {
  tokenUrl: string;
  revokeUrl: string;
}

export function googleHealthSettings(c: Config, secrets: Secrets): GoogleHealthSettings {
  // The same callback page as the legacy API: the consent flow is the portal's, whichever API is behind it.
  const redirectUri = `${c.publicUrl}/fitbit-callback`;
  if (c.GOOGLE_HEALTH_CLIENT_ID) {
    return {
      simulated: false,
      clientId: c.GOOGLE_HEALTH_CLIENT_ID,
      clientSecret: c.GOOGLE_HEALTH_CLIENT_SECRET ?? '',
      authorizeUrl: c.GOOGLE_HEALTH_AUTHORIZE_URL,
      tokenUrl: c.GOOGLE_HEALTH_TOKEN_URL,
      revokeUrl: c.GOOGLE_HEALTH_REVOKE_URL,
      apiUrl: c.GOOGLE_HEALTH_API_URL.replace(/\/$/, ''),
      redirectUri,
      scopes: GOOGLE_HEALTH_SCOPES,
      pkce: true,
      authorizeExtras: AUTHORIZE_EXTRAS,
    };
  }
  const base = `${c.publicUrl}${GOOGLE_HEALTH_SIM_PREFIX}`;
  return {
    simulated: true,
    clientId: 'trialwear-sim.apps.googleusercontent.com',
    clientSecret: simulatorClientSecret(secrets.sessionSecret, 'google-health'),
    authorizeUrl: `${base}/o/oauth2/v2/auth`,
    tokenUrl: `${base}/token`,
    revokeUrl: `${base}/revoke`,
    apiUrl: base,
    redirectUri,
    scopes: GOOGLE_HEALTH_SCOPES,
    pkce: true,
    authorizeExtras: AUTHORIZE_EXTRAS,
  };
}
