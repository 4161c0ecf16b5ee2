/*
 * What the device-link service needs from each provider (Fitbit, Omron,
 * Dexcom). Each adapter is the only code that talks to its provider; the
 * service (link-service.ts) does consent, callbacks, tokens and device lists
 * the same way for all of them.
 */
import type { AppContext } from '../../app-context.js';

export const PROVIDERS = ['fitbit', 'omron', 'dexcom'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ProviderSettings {
  simulated: boolean;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  apiUrl: string;
  redirectUri: string;
  scopes: string[];
  pkce: boolean;
}

export interface ProviderFailure {
  ok: false;
  /** HTTP status; 0 = no answer (network). */
  status: number;
  errorType: string;
  message: string;
}
export type ProviderResult<T> = { ok: true; data: T } | ProviderFailure;

export interface ProviderTokens {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  providerUserId: string | null;
}

/** One entry of a participant's device list (core §3 "Device entry"). */
export interface DeviceEntry {
  device: 'fitness tracker' | 'scale' | 'glucose monitor' | 'Error';
  batteryLevel: number | null;
  battery: string | null;
  deviceVersion: string | null;
  deviceType: 'TRACKER' | 'SCALE' | 'BLOOD_PRESSURE' | 'CGM' | null;
  lastSyncTime: string | null;
  hasError: boolean;
  errorType: string | null;
}

export interface ProviderAdapter {
  provider: Provider;
  brand: 'Fitbit' | 'Omron' | 'Dexcom';
  /** The global-catalog device a new link points at. */
  catalogDevice: string;
  /** Public page of the consent link (core §2). */
  consentPage: string;
  settings(ctx: Pick<AppContext, 'config' | 'secrets'>): ProviderSettings;
  exchangeCode(
    s: ProviderSettings,
    code: string,
    codeVerifier: string,
  ): Promise<ProviderResult<ProviderTokens>>;
  refresh(s: ProviderSettings, refreshToken: string): Promise<ProviderResult<ProviderTokens>>;
  /** null: the provider has no revoke endpoint (Dexcom); the link is dropped locally. */
  revoke: ((s: ProviderSettings, token: string) => Promise<ProviderResult<unknown>>) | null;
  devices(s: ProviderSettings, accessToken: string, now: Date): Promise<ProviderResult<DeviceEntry[]>>;
  /** Whether a failure means "refresh the token and try once more". */
  needsRefresh(f: ProviderFailure): boolean;
}
