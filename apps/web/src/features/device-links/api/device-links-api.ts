import { useQuery } from '@tanstack/react-query';
import type {
  AuthorizeUrlResult,
  ConsentRequestResult,
  DeviceEntry,
  LinkActionResult,
  LinkStatus,
  Provider,
  TokenStatus,
} from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const fetchDevices = (provider: Provider, participantId: number) =>
  api.get<DeviceEntry[]>(`/participantDevices/${participantId}/${provider}`);

/** A link is authorized when the provider lists at least one device or an error for it. */
export const useDevices = (provider: Provider, participantId: number) =>
  useQuery({
    queryKey: ['devices', provider, participantId],
    queryFn: () => fetchDevices(provider, participantId),
  });

export const requestConsent = (provider: Provider, participantId: number) =>
  api.post<ConsentRequestResult>(`/participantDevices/${participantId}/${provider}/consentRequest`);
export const refreshToken = (provider: Provider, participantId: number) =>
  api.post<LinkActionResult>(`/${provider}RefreshToken`, { id: participantId });
/** The spec's calls: Fitbit revokes with a GET (sent with the CSRF header), Omron and Dexcom with a POST. */
export const revokeAccess = (provider: Provider, participantId: number) =>
  provider === 'fitbit'
    ? api.getWithCsrf<LinkActionResult>(`/revokeAccessToken/${participantId}`)
    : api.post<LinkActionResult>(`/${provider}RevokeToken`, { id: participantId });
export const authorizeUrl = (provider: Provider, id: string, t: string) =>
  api.get<AuthorizeUrlResult>(
    `/consent/${provider}/authorizeUrl?id=${encodeURIComponent(id)}&t=${encodeURIComponent(t)}`,
  );
export const completeConsent = (provider: Provider, authCode: string, state: string) =>
  api.post<LinkActionResult>(
    `/${provider}-callback`,
    provider === 'fitbit' ? { authCode, participantId: state } : { authCode, participantData: state },
  );

/** The link status; `refetchEvery` (ms) re-checks it while a consent is awaited. */
export const useLinkStatus = (
  provider: Provider,
  participantId: number,
  refetchEvery: number | false = false,
) =>
  useQuery({
    queryKey: ['linkStatus', provider, participantId],
    queryFn: () => api.get<LinkStatus>(`/participantDevices/${participantId}/${provider}/status`),
    refetchInterval: refetchEvery,
  });

export const useTokenStatus = (provider: Provider, participantId: number) =>
  useQuery({
    queryKey: ['tokenStatus', provider, participantId],
    queryFn: () => api.get<TokenStatus>(`/participantDevices/${participantId}/${provider}/token`),
  });
