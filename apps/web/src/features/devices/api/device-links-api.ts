import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type Provider = 'fitbit' | 'omron' | 'dexcom';

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

/** A link is authorized when the provider lists at least one device or an error for it. */
export const useDevices = (provider: Provider, participantId: number) =>
  useQuery({
    queryKey: ['devices', provider, participantId],
    queryFn: () => api.get<DeviceEntry[]>(`/participantDevices/${participantId}/${provider}`),
  });

export const requestConsent = (provider: Provider, participantId: number) =>
  api.post<{ success: boolean; emailed: boolean; link: string }>(
    `/participantDevices/${participantId}/${provider}/consentRequest`,
  );
export const refreshToken = (provider: Provider, participantId: number) =>
  api.post<{ success: boolean }>(`/${provider}RefreshToken`, { id: participantId });
/** The spec's calls: Fitbit revokes with a GET (sent with the CSRF header), Omron and Dexcom with a POST. */
export const revokeAccess = (provider: Provider, participantId: number) =>
  provider === 'fitbit'
    ? api.getWithCsrf<{ success: boolean }>(`/revokeAccessToken/${participantId}`)
    : api.post<{ success: boolean }>(`/${provider}RevokeToken`, { id: participantId });
export const authorizeUrl = (provider: Provider, id: string, t: string) =>
  api.get<{ url: string }>(
    `/consent/${provider}/authorizeUrl?id=${encodeURIComponent(id)}&t=${encodeURIComponent(t)}`,
  );
export const completeConsent = (provider: Provider, authCode: string, state: string) =>
  api.post<{ success: boolean; message: string }>(
    `/${provider}-callback`,
    provider === 'fitbit' ? { authCode, participantId: state } : { authCode, participantData: state },
  );

export interface LinkStatus {
  status: 'none' | 'pending' | 'authorized' | 'revoked' | 'error';
  authorizationDate: string | null;
  revokeAvailable: boolean;
}
export const useLinkStatus = (provider: Provider, participantId: number) =>
  useQuery({
    queryKey: ['linkStatus', provider, participantId],
    queryFn: () => api.get<LinkStatus>(`/participantDevices/${participantId}/${provider}/status`),
  });
