import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export interface PublicConfig {
  version: string;
  recaptchaSiteKey: string | null;
}

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
    queryFn: () => api.get<{ data: string }>('/appVersion').then((r) => r.data),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
