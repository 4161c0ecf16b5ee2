import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RedcapEnrolApplyResult,
  RedcapEnrolPreview,
  RedcapLogEntry,
  RedcapPushResult,
  RedcapSettingsAnswer,
  RedcapSettingsBody,
  RedcapTestResult,
} from '@trialwear/contract';
import { api } from '../../../lib/api-client';

const path = (trialId: number) => `/trials/${trialId}/redcap`;
const settingsKey = (trialId: number) => ['redcap', trialId, 'settings'] as const;
const logKey = (trialId: number) => ['redcap', trialId, 'log'] as const;

export function useRedcapSettings(trialId: number, enabled: boolean) {
  return useQuery({
    queryKey: settingsKey(trialId),
    queryFn: () => api.get<RedcapSettingsAnswer>(path(trialId)),
    enabled,
  });
}

export function useSaveRedcapSettings(trialId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RedcapSettingsBody) => api.put<RedcapSettingsAnswer>(path(trialId), body),
    onSuccess: (answer) => qc.setQueryData(settingsKey(trialId), answer),
  });
}

export function useTestRedcap(trialId: number) {
  return useMutation({
    mutationFn: (body: { apiUrl?: string; token?: string }) =>
      api.post<RedcapTestResult>(`${path(trialId)}/test`, body),
  });
}

export function useRedcapLog(trialId: number, enabled: boolean) {
  return useQuery({
    queryKey: logKey(trialId),
    queryFn: () => api.get<{ entries: RedcapLogEntry[] }>(`${path(trialId)}/log`),
    enabled,
  });
}

export function usePushRedcap(trialId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (dates: { from: string; to: string }) =>
      api.post<RedcapPushResult>(`${path(trialId)}/push`, dates),
    // A failed push is in the log too.
    onSettled: () => qc.invalidateQueries({ queryKey: logKey(trialId) }),
  });
}

export function useRedcapEnrol(trialId: number) {
  const qc = useQueryClient();
  return {
    preview: useMutation({
      mutationFn: () => api.post<RedcapEnrolPreview>(`${path(trialId)}/enrol/preview`),
    }),
    apply: useMutation({
      mutationFn: (previewDigest: string) =>
        api.post<RedcapEnrolApplyResult>(`${path(trialId)}/enrol/apply`, { previewDigest }),
      onSuccess: () => qc.invalidateQueries({ queryKey: ['trialParticipants', trialId] }),
    }),
  };
}
