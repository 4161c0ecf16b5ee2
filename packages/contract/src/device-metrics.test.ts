import { describe, expect, it } from 'vitest';
import { retentionText } from './data-retention.js';
import {
  type AvailableMetric,
  checkboxModeSettings,
  type DeviceMetricSetting,
  deviceTypeLabel,
} from './device-metrics.js';

const metric = (key: string, retention = 30): AvailableMetric => ({
  id: key.length,
  metric_key: key,
  metric_name: key.toUpperCase(),
  units: 'u',
  device_type: 'fitness_tracker',
  category: 'Activity',
  description: null,
  available: true,
  default_retention_days: retention,
});
const setting = (key: string, is_enabled: boolean, retention_days: number): DeviceMetricSetting => ({
  id: key.length,
  metric_key: key,
  metric_name: `saved ${key}`,
  metric_units: 'x',
  is_enabled,
  retention_days,
});

describe('mode A save (admin §4)', () => {
  it('adds newly checked metrics disabled with their default retention, drops unchecked ones, keeps the rest', () => {
    const catalog = [metric('steps'), metric('floors', 90), metric('hrv')];
    const saved = [setting('steps', true, 400), setting('hrv', false, 10)];
    const plan = checkboxModeSettings(saved, catalog, new Set(['steps', 'floors']));
    expect(plan).toEqual({
      settings: [
        {
          metric_key: 'steps',
          metric_name: 'saved steps',
          metric_units: 'x',
          is_enabled: true,
          retention_days: 400,
        },
        {
          metric_key: 'floors',
          metric_name: 'FLOORS',
          metric_units: 'u',
          is_enabled: false,
          retention_days: 90,
        },
      ],
      added: 1,
      removed: 1,
    });
  });
  it('nothing changed: no counts', () => {
    const saved = [setting('steps', true, 30)];
    const plan = checkboxModeSettings(saved, [metric('steps')], new Set(['steps']));
    expect([plan.added, plan.removed]).toEqual([0, 0]);
  });
});

describe('retention text (admin §2, §9)', () => {
  it('shows days and years to one decimal, or that none is set', () => {
    expect(retentionText(730)).toBe('Retention: 730 days (2.0 years)');
    expect(retentionText(400)).toBe('Retention: 400 days (1.1 years)');
    expect(retentionText(null)).toBe('No retention period set yet.');
  });
});

describe('device types in words', () => {
  it('names the catalog types as people read them, never the raw key', () => {
    expect(deviceTypeLabel('fitness_tracker')).toBe('Fitness tracker');
    expect(deviceTypeLabel('blood_pressure')).toBe('Blood pressure monitor');
    expect(deviceTypeLabel('cgm')).toBe('Continuous glucose monitor');
    expect(deviceTypeLabel('sleep_ring')).toBe('Sleep ring');
  });
});
