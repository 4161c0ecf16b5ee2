import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface DeviceEntry {
  device: 'fitness tracker' | 'scale' | 'Error';
  batteryLevel: number | null;
  battery: string | null;
  deviceVersion: string | null;
  deviceType: 'TRACKER' | 'SCALE' | null;
  lastSyncTime: string | null;
  hasError: boolean;
  errorType: string | null;
}

export const useFitbitAuth = (participantId: number) =>
  useQuery({
    queryKey: ['fitbitAuth', participantId],
    queryFn: () => api.get<{ message: 'found' | 'not found' }>(`/fitbitIsParticipantAuth/${participantId}`),
  });

export const useFitbitDevices = (participantId: number, enabled: boolean) =>
  useQuery({
    queryKey: ['fitbitDevices', participantId],
    queryFn: () => api.get<DeviceEntry[]>(`/participantDevices/${participantId}/fitbit`),
    enabled,
  });

export const requestFitbitConsent = (participantId: number) =>
  api.post<{ success: boolean; emailed: boolean; link: string }>(
    `/participantDevices/${participantId}/fitbit/consentRequest`,
  );
export const refreshFitbitToken = (participantId: number) =>
  api.post<{ success: boolean }>('/fitbitRefreshToken', { id: participantId });
/** The spec's revoke call is a GET; the API client's CSRF header goes with it. */
export const revokeFitbit = (participantId: number) =>
  api.getWithCsrf<{ success: boolean }>(`/revokeAccessToken/${participantId}`);
export const fitbitAuthorizeUrl = (id: string, t: string) =>
  api.get<{ url: string }>(
    `/consent/fitbit/authorizeUrl?id=${encodeURIComponent(id)}&t=${encodeURIComponent(t)}`,
  );
export const completeFitbitConsent = (authCode: string, state: string) =>
  api.post<{ success: boolean; message: string }>('/fitbit-callback', { authCode, participantId: state });
