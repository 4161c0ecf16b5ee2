import { useQuery } from '@tanstack/react-query';
import type {
  AvailableMetric,
  DeviceMetricSetting,
  DeviceMetricSettingInput,
  PutDeviceSettingsResult,
  SysAdminTeam,
  TeamSupportedDevice,
} from '@trialwear/contract';
import { ApiRequestError, api, NetworkError } from '../../../lib/api-client';

export const useAllTeams = () =>
  useQuery({ queryKey: ['sysAdminTeams'], queryFn: () => api.get<SysAdminTeam[]>('/sysAdminTeamsData') });

export const useTeamDevices = (teamId: number | null) =>
  useQuery({
    queryKey: ['teamSupportedDevices', teamId],
    queryFn: () => api.get<TeamSupportedDevice[]>(`/teamSupportedDevices/${teamId}`),
    enabled: teamId !== null,
  });

export const useAvailableMetrics = (teamId: number, deviceId: number, deviceType: string) =>
  useQuery({
    queryKey: ['availableMetrics', teamId, deviceId, deviceType],
    queryFn: () =>
      api.get<AvailableMetric[]>(
        `/deviceSettings/enhanced/availableMetrics/${teamId}/${deviceId}/${encodeURIComponent(deviceType)}`,
      ),
  });

export const deviceSettingsKey = (teamId: number, deviceId: number) => ['deviceSettings', teamId, deviceId];

export const useDeviceSettings = (teamId: number, deviceId: number) =>
  useQuery({
    queryKey: deviceSettingsKey(teamId, deviceId),
    queryFn: () =>
      api.get<DeviceMetricSetting[]>(`/deviceSettings/enhanced/deviceSettings/${teamId}/${deviceId}`),
  });

/** Every catalog metric, for mode B's dropdown grouped by device type. */
export const useMetricCatalog = () =>
  useQuery({
    queryKey: ['metricCatalog'],
    queryFn: () => api.get<AvailableMetric[]>('/deviceSettings/enhanced/metricCatalog'),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** PUT the whole list: it replaces the device's settings. */
export const putDeviceSettings = (teamId: number, deviceId: number, settings: DeviceMetricSettingInput[]) =>
  api.put<PutDeviceSettingsResult>(`/deviceSettings/${teamId}/${deviceId}`, { settings });

/** The {reason} of the §8 banners: the server's message, else what went wrong. */
export function reasonOf(err: unknown): string {
  if (err instanceof ApiRequestError) return err.body?.message ?? `request failed (${err.status})`;
  if (err instanceof NetworkError) return 'the server could not be reached';
  return err instanceof Error ? err.message : String(err);
}
