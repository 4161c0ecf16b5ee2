/*
 * The batch data export calls (admin §7, plus our cancel): one fetcher or
 * query hook per call. The lists depend on each other through their keys
 * (participants on trial and device, metrics on device); the jobs list is
 * polled every 10 s while the page is open.
 */
import { useQuery } from '@tanstack/react-query';
import {
  type BatchExportBody,
  type BatchExportResult,
  EXPORT_LIMITS,
  type ExportDevice,
  type ExportJobActionResult,
  type ExportJobsResult,
  type ExportMetric,
  type ExportParticipant,
  type ExportPolicyResult,
  type ExportTrial,
} from '@trialwear/contract';
import { api } from '../../../lib/api-client';

const base = '/dataExport';

export const exportKeys = {
  all: ['dataExport'] as const,
  jobs: ['dataExport', 'jobs'] as const,
};

export const useExportTrials = () =>
  useQuery({
    queryKey: [...exportKeys.all, 'trials'],
    queryFn: () => api.get<ExportTrial[]>(`${base}/trials`),
  });

export const useExportDevices = () =>
  useQuery({
    queryKey: [...exportKeys.all, 'devices'],
    queryFn: () => api.get<ExportDevice[]>(`${base}/devices`),
  });

export const useExportParticipants = (trialId: number | null, deviceId: number | null) =>
  useQuery({
    queryKey: [...exportKeys.all, 'participants', trialId, deviceId],
    queryFn: () => api.get<ExportParticipant[]>(`${base}/trials/${trialId}/participants/${deviceId}`),
    enabled: trialId !== null && deviceId !== null,
  });

export const useExportMetrics = (deviceId: number | null) =>
  useQuery({
    queryKey: [...exportKeys.all, 'metrics', deviceId],
    queryFn: () => api.get<ExportMetric[]>(`${base}/metrics/${deviceId}`),
    enabled: deviceId !== null,
  });

/** The latest 10 jobs, polled every 10 s while the page is open (not while the tab is hidden). */
export const useExportJobs = () =>
  useQuery({
    queryKey: exportKeys.jobs,
    queryFn: () => api.get<ExportJobsResult>(`${base}/jobs?limit=${EXPORT_LIMITS.jobsListLimit}`),
    refetchInterval: EXPORT_LIMITS.pollMs,
  });

/** PUT the trial's export policy (Admin): whether exports with real dates are allowed. */
export const setExportPolicy = (trialId: number, allowIdentifiedExports: boolean) =>
  api.put<ExportPolicyResult>(`${base}/trials/${trialId}/policy`, { allowIdentifiedExports });

export const requestExport = (body: BatchExportBody) =>
  api.post<BatchExportResult>(`${base}/batchDataExport`, body);

export const cancelExportJob = (id: string) =>
  api.post<ExportJobActionResult>(`${base}/jobs/${encodeURIComponent(id)}/cancel`);

export const deleteExportJob = (id: string) =>
  api.delete<ExportJobActionResult>(`${base}/jobs/${encodeURIComponent(id)}`);

/** Opened in a new tab (admin §2): a plain link, so the browser streams the file to disk. */
export const exportDownloadUrl = (id: string) => `/api${base}/jobs/${encodeURIComponent(id)}/download`;
