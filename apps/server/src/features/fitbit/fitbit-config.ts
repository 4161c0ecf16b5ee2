/*
 * Where the Fitbit side lives: the real service when FITBIT_CLIENT_ID is set,
 * otherwise the simulator mounted on this server under /sim/fitbit (reached
 * over real HTTP, like the real one).
 */
import { createHmac } from 'node:crypto';
import type { AppContext } from '../../app-context.js';

export interface FitbitSettings {
  simulated: boolean;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  apiUrl: string;
  redirectUri: string;
  scopes: string[];
}

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

export function fitbitSettings(ctx: Pick<AppContext, 'config' | 'secrets'>): FitbitSettings {
  const c = ctx.config;
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
    };
  }
  return {
    simulated: true,
    clientId: 'TRIALWEARSIM',
    clientSecret: createHmac('sha256', ctx.secrets.sessionSecret)
      .update('fitbit-simulator-client')
      .digest('base64url'),
    authorizeUrl: `${c.publicUrl}${FITBIT_SIM_PREFIX}/oauth2/authorize`,
    apiUrl: `${c.publicUrl}${FITBIT_SIM_PREFIX}`,
    redirectUri,
    scopes: SCOPES,
  };
}
