import { useQuery } from '@tanstack/react-query';
import type { StorableMetric, StorageDevice, StorageSelection, TeamRetention } from '@trialwear/contract';
import { ApiRequestError, api } from '../../../lib/api-client';

const base = '/dataStorageService';

export const useStorageDevices = (teamId: number) =>
  useQuery({
    queryKey: ['storage', teamId, 'devices'],
    queryFn: () => api.get<StorageDevice[]>(`${base}/team/${teamId}/devices`),
  });

export const useTeamRetention = (teamId: number) =>
  useQuery({
    queryKey: ['storage', teamId, 'retention'],
    queryFn: () => api.get<TeamRetention>(`${base}/team/${teamId}/retention`),
  });

export const useStorableMetrics = (teamId: number, deviceType: string | null) =>
  useQuery({
    queryKey: ['storage', teamId, 'metrics', deviceType],
    queryFn: () => api.get<StorableMetric[]>(`${base}/metrics/${encodeURIComponent(deviceType!)}`),
    enabled: deviceType !== null,
  });

/** A 404 on the selections is an empty list, not an error (admin §7). */
export const useStorageSelections = (teamId: number, deviceType: string | null) =>
  useQuery({
    queryKey: ['storage', teamId, 'selections', deviceType],
    queryFn: () =>
      api
        .get<StorageSelection[]>(
          `${base}/team/${teamId}/device/${encodeURIComponent(deviceType!)}/selections`,
        )
        .catch((err) => {
          if (err instanceof ApiRequestError && err.status === 404) return [];
          throw err;
        }),
    enabled: deviceType !== null,
  });

const metricUrl = (teamId: number, deviceType: string) =>
  `${base}/team/${teamId}/device/${encodeURIComponent(deviceType)}/metric`;

export const enableStorageMetric = (teamId: number, deviceType: string, m: StorableMetric) =>
  api.post(metricUrl(teamId, deviceType), {
    metric_key: m.metric_key,
    metric_name: m.metric_name,
    units: m.units,
    device_metric_id: m.id,
  });

export const disableStorageMetric = (teamId: number, deviceType: string, metricKey: string) =>
  api.delete(`${metricUrl(teamId, deviceType)}/${encodeURIComponent(metricKey)}`);
