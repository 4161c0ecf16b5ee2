import { useQuery } from '@tanstack/react-query';
import type { AppVersion, PublicConfig } from '@trialwear/contract';
import { api } from './api-client';

export function usePublicConfig() {
  return useQuery({
    queryKey: ['publicConfig'],
    queryFn: () => api.get<PublicConfig>('/publicConfig'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useAppVersion() {
  return useQuery({
    queryKey: ['appVersion'],
    queryFn: () => api.get<AppVersion>('/appVersion').then((r) => r.data),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
