/*
 * Device metrics manager (admin §2 "Device metrics manager", §3, §5, §7, §8):
 * the metric catalog ("available metrics"), a team device's metric settings,
 * the PUT that replaces them, and every message of the page.
 */
import { z } from 'zod';
import { RETENTION } from './constants.js';

export const DEVICE_METRICS_MESSAGES = {
  // §5 row validation and bulk actions
  nameRequired: 'Metric name is required',
  retentionMin: 'Retention days must be at least 1',
  fixErrors: 'Please fix validation errors before saving',
  selectToModify: 'Please select at least one setting to modify',
  selectToDelete: 'Please select at least one setting to delete',
  noDevices: 'No devices found for this team',
  // refusals of the server (shown as the {reason} of the §8 banners)
  deviceNotFound: 'Device not found for this team',
  deviceTypeMismatch: 'The device is not of this device type',
  duplicateMetric: 'Each metric may appear only once in the settings',
  unknownMetric: 'Unknown metric: pick one from the metric catalog',
} as const;

/** §8: the page's banners; `{reason}` is the server's message or the network error. */
export const DEVICE_METRICS_ERRORS = {
  fetchTeams: 'Failed to fetch teams',
  fetchDevices: 'Failed to fetch devices',
  fetchSettings: 'Failed to fetch device settings',
  fetchMetrics: 'Failed to fetch available metrics',
  saveSelections: 'Failed to save selections',
  saveChanges: 'Failed to save changes',
  deleteSetting: 'Failed to delete setting',
  deleteSettings: 'Failed to delete settings',
  enableDisable: 'Failed to enable/disable settings',
} as const;

export const withReason = (banner: string, reason: string) => `${banner}: ${reason}`;

/** The catalog's device types as people read them (the group labels of the metric pickers). */
const CATALOG_DEVICE_TYPES: Record<string, string> = {
  fitness_tracker: 'Fitness tracker',
  scale: 'Scale',
  blood_pressure: 'Blood pressure monitor',
  cgm: 'Continuous glucose monitor',
};

/** A catalog device type in words; a type added later reads as its key in words ("sleep_ring" → "Sleep ring"). */
export function deviceTypeLabel(deviceType: string): string {
  const known = CATALOG_DEVICE_TYPES[deviceType];
  if (known) return known;
  const words = deviceType.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Available metric (§3), one row of the metric catalog. */
export const availableMetricSchema = z.object({
  id: z.number(),
  metric_key: z.string(),
  metric_name: z.string(),
  units: z.string().nullable(),
  device_type: z.string(),
  category: z.string(),
  description: z.string().nullable(),
  available: z.boolean(),
  default_retention_days: z.number(),
});
export type AvailableMetric = z.infer<typeof availableMetricSchema>;

/** Device metric setting (§3) as stored. */
export const deviceMetricSettingSchema = z.object({
  id: z.number(),
  metric_key: z.string(),
  metric_name: z.string(),
  metric_units: z.string().nullable(),
  is_enabled: z.boolean(),
  retention_days: z.number(),
});
export type DeviceMetricSetting = z.infer<typeof deviceMetricSettingSchema>;

/** One row of the PUT: retention_days is 30 when absent (§9). */
export const deviceMetricSettingInputSchema = z.object({
  metric_key: z.string().trim().min(1, DEVICE_METRICS_MESSAGES.nameRequired).max(100),
  metric_name: z.string().trim().min(1, DEVICE_METRICS_MESSAGES.nameRequired).max(200),
  metric_units: z.string().max(50).nullable().optional(),
  is_enabled: z.boolean(),
  retention_days: z
    .number()
    .int(DEVICE_METRICS_MESSAGES.retentionMin)
    .min(RETENTION.minDays, DEVICE_METRICS_MESSAGES.retentionMin)
    .default(RETENTION.defaultDays),
});
export type DeviceMetricSettingInput = z.input<typeof deviceMetricSettingInputSchema>;

/** PUT /api/deviceSettings/{teamId}/{deviceId}: the whole list, which replaces the prior one. */
export const putDeviceSettingsBodySchema = z.object({
  settings: z.array(deviceMetricSettingInputSchema).max(500),
});
export type PutDeviceSettingsBody = z.input<typeof putDeviceSettingsBodySchema>;

export const putDeviceSettingsResultSchema = z.object({
  message: z.string(),
  settings: z.array(deviceMetricSettingSchema),
});
export type PutDeviceSettingsResult = z.infer<typeof putDeviceSettingsResultSchema>;

/**
 * Mode A's save (§4): newly checked metrics join with is_enabled false and
 * their default retention, unchecked ones leave, the rest keep their flag and
 * retention. Returns the list to PUT and the counts for the save bar.
 */
export function checkboxModeSettings(
  saved: readonly DeviceMetricSetting[],
  catalog: readonly AvailableMetric[],
  checkedKeys: ReadonlySet<string>,
): { settings: DeviceMetricSettingInput[]; added: number; removed: number } {
  const savedKeys = new Set(saved.map((s) => s.metric_key));
  const kept = saved.filter((s) => checkedKeys.has(s.metric_key));
  const added = catalog.filter((m) => checkedKeys.has(m.metric_key) && !savedKeys.has(m.metric_key));
  return {
    settings: [
      ...kept.map(({ metric_key, metric_name, metric_units, is_enabled, retention_days }) => ({
        metric_key,
        metric_name,
        metric_units,
        is_enabled,
        retention_days,
      })),
      ...added.map((m) => ({
        metric_key: m.metric_key,
        metric_name: m.metric_name,
        metric_units: m.units,
        is_enabled: false,
        retention_days: m.default_retention_days,
      })),
    ],
    added: added.length,
    removed: saved.length - kept.length,
  };
}
