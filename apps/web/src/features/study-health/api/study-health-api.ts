import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  HealthAlert,
  HealthAlertCount,
  HealthRules,
  HealthRulesAnswer,
  HealthSubscription,
  StudyHealth,
  StudyHealthReportFormat,
  Trial,
} from '@trialwear/contract';
import { api } from '../../../lib/api-client';

const base = '/studyHealth';
const keys = {
  all: (trialId: number) => ['studyHealth', trialId] as const,
  table: (trialId: number, from: string, to: string) => ['studyHealth', trialId, 'table', from, to] as const,
  rules: (trialId: number) => ['studyHealth', trialId, 'rules'] as const,
  alerts: (trialId: number) => ['studyHealth', trialId, 'alerts'] as const,
  count: ['studyHealth', 'alertCount'] as const,
};

/**
 * The compliance report of a range (decision 034): a plain link, the download's name and errors
 * come from the server (a GET with the session cookie, no CSRF header needed).
 */
export const healthReportUrl = (
  trialId: number,
  range: { from: string; to: string },
  format: StudyHealthReportFormat,
) => `/api${base}/trials/${trialId}/report?format=${format}&from=${range.from}&to=${range.to}`;

/** The page's table for a range of the trial's local dates. */
export const useStudyHealth = (trialId: number, range: { from: string; to: string } | null) =>
  useQuery({
    queryKey: keys.table(trialId, range?.from ?? '', range?.to ?? ''),
    queryFn: () => api.get<StudyHealth>(`${base}/trials/${trialId}?from=${range!.from}&to=${range!.to}`),
    enabled: range !== null,
    placeholderData: (previous) => previous,
  });

export const useHealthRules = (trialId: number) =>
  useQuery({
    queryKey: keys.rules(trialId),
    queryFn: () => api.get<HealthRulesAnswer>(`${base}/trials/${trialId}/rules`),
  });

export function useSaveHealthRules(trialId: number) {
  const qc = useQueryClient();
  return useMutation({
    // The form sends what was typed: the server's schema answers with a message per field.
    mutationFn: (rules: HealthRules | Record<string, unknown>) =>
      api.put<HealthRulesAnswer>(`${base}/trials/${trialId}/rules`, rules),
    onSuccess: (saved) => {
      qc.setQueryData(keys.rules(trialId), saved);
      void qc.invalidateQueries({ queryKey: keys.all(trialId) });
    },
  });
}

export const useHealthAlerts = (trialId: number) =>
  useQuery({
    queryKey: keys.alerts(trialId),
    queryFn: () => api.get<HealthAlert[]>(`${base}/trials/${trialId}/alerts`),
  });

export function useAcknowledgeAlert(trialId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, note }: { alertId: number; note: string }) =>
      api.post<HealthAlert>(`${base}/alerts/${alertId}/acknowledge`, { note }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: keys.all(trialId) });
      void qc.invalidateQueries({ queryKey: keys.count });
    },
  });
}

export function useDigestSubscription(trialId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (digest: boolean) =>
      api.put<HealthSubscription>(`${base}/trials/${trialId}/subscription`, { digest }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all(trialId) }),
  });
}

/** The navigation's badge: open alerts of the trials the user sees (refreshed every minute). */
export const useAlertCount = (enabled: boolean) =>
  useQuery({
    queryKey: keys.count,
    queryFn: () => api.get<HealthAlertCount>(`${base}/alertCount`),
    enabled,
    refetchInterval: 60_000,
  });

/** The trials the user sees (the trials page's list and cache key), to name the page's trial. */
export const useVisibleTrials = (teamId: number | null) =>
  useQuery({
    queryKey: ['userTrials', teamId] as const,
    queryFn: () => api.get<Trial[]>('/userTrials/'),
    enabled: teamId !== null,
  });
