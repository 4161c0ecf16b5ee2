import { useQuery } from '@tanstack/react-query';
import type { ActionResult, ParticipantAccount, SharedDevices } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const participantLogin = (
  username: string,
  password: string,
  recaptchaResponse: string,
  verifyToken: string | undefined,
) =>
  api.post<{ account: ParticipantAccount }>('/participantAuth/login', {
    username,
    password,
    recaptchaResponse,
    ...(verifyToken ? { verifyToken } : {}),
  });

export const participantLogout = () => api.post<ActionResult>('/participantAuth/logout', {});

export const useParticipantAccount = () =>
  useQuery({
    queryKey: ['participantAccount'],
    queryFn: () => api.get<{ account: ParticipantAccount }>('/participantAuth/account'),
    retry: false,
  });

export const useSharedDevices = (enabled: boolean) =>
  useQuery({
    queryKey: ['participantSharing'],
    queryFn: () => api.get<SharedDevices>('/participantAuth/sharing'),
    enabled,
    retry: false,
  });

export const stopSharing = (linkId: number) =>
  api.post<ActionResult>(`/participantAuth/sharing/${linkId}/stop`, {});
