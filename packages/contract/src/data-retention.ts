/*
 * Data Storage & Retention Settings (admin §2, §4, §7, §8): the team's
 * supported devices, its read-only retention, the metrics it may store (only
 * those a Sys_Admin enabled for its device) and its selections.
 */
import { z } from 'zod';
import { retentionYears } from './constants.js';

export const DATA_RETENTION_MESSAGES = {
  title: 'Data Storage & Retention Settings',
  noRetention: 'No retention period set yet.',
  noDevices: 'No supported devices found for your team.',
  saved: 'Changes saved',
  saving: 'Saving...',
  save: 'Save Changes',
  discard: 'Discard',
  // §8
  fetchDevices: 'Failed to fetch supported devices',
  fetchRetention: 'Failed to fetch retention period',
  fetchMetrics: 'Failed to fetch available metrics',
  fetchSelections: 'Failed to fetch current selections',
  saveChanges: 'Failed to save changes',
  // server refusals
  deviceTypeNotSupported: 'Your team has no supported device of this type',
  metricNotEnabled:
    'This metric has not been enabled for your team by a system administrator and cannot be stored',
  notSelected: 'This metric is not stored for your team',
  // the stop note (issue #11 item 6): disabling keeps what is stored until retention removes it
  disableNote:
    'Disabling a metric stops collecting it; readings already stored stay until the retention period removes them.',
  // Which of the two retention figures applies (issue #26): the purge's rule, said where both are seen.
  retentionRule:
    "Each metric's readings are kept for its own retention days, set per device by a system administrator, but never longer than the team's retention period; older readings are removed every night.",
  keptFor: 'Kept for',
} as const;

/** 'Retention: N days (X years)' (§2), years = days/365 to one decimal. */
export function retentionText(days: number | null): string {
  if (days === null) return DATA_RETENTION_MESSAGES.noRetention;
  return `Retention: ${days} days (${retentionYears(days).toFixed(1)} years)`;
}

/** 'N of M metrics enabled' */
export const enabledCountText = (n: number, m: number) => `${n} of ${m} metrics enabled`;

/** GET /api/dataStorageService/team/{teamId}/devices */
export const storageDeviceSchema = z.object({
  team_supported_device_id: z.number(),
  device_name: z.string(),
  device_type: z.string(),
});
export type StorageDevice = z.infer<typeof storageDeviceSchema>;

/** GET /api/dataStorageService/team/{teamId}/retention */
export const teamRetentionSchema = z.object({ retention_days: z.number().nullable() });
export type TeamRetention = z.infer<typeof teamRetentionSchema>;

/** GET /api/dataStorageService/metrics/{deviceType}: the metrics the team may store for that type. */
export const storableMetricSchema = z.object({
  id: z.number().nullable(),
  metric_key: z.string(),
  metric_name: z.string(),
  units: z.string().nullable(),
  category: z.string().nullable(),
  description: z.string().nullable(),
  /**
   * How long the team keeps this metric's readings, the rule the retention
   * purge applies: the metric's retention days (set per device by a system
   * administrator; the longest if two devices measure it), never more than the
   * team's retention period.
   */
  retention_days: z.number(),
});
export type StorableMetric = z.infer<typeof storableMetricSchema>;

/** GET …/device/{deviceType}/selections */
export const storageSelectionSchema = z.object({ metric_key: z.string(), is_enabled: z.boolean() });
export type StorageSelection = z.infer<typeof storageSelectionSchema>;

/** POST …/device/{deviceType}/metric */
export const addStorageMetricBodySchema = z.object({
  metric_key: z.string().trim().min(1).max(100),
  metric_name: z.string().trim().min(1).max(200),
  units: z.string().max(50).nullable().optional(),
  device_metric_id: z.number().int().nullable().optional(),
});
export type AddStorageMetricBody = z.input<typeof addStorageMetricBodySchema>;

export const storageChangeResultSchema = z.object({ message: z.string() });
