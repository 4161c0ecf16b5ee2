import { DEVICE_METRICS_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failAuditOf } from '../support/failing-audit.js';
import { teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface Device {
  id: number;
  device_name: string;
  device_type: string;
}

describe('device metrics manager', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let teams = 0;
  /** A team of the test's own and its Fitbit Sense: every test changes or reads settings of its own device. */
  const newTeam = async () => {
    teams += 1;
    const team = await teamWithRoles(t, `Metrics ${teams}`);
    const devices: Device[] = (
      await team.as.Sys_Admin.get(`/api/teamSupportedDevices/${team.teamId}`)
    ).json();
    return { ...team, sense: devices.find((d) => d.device_name === 'Fitbit Sense')! };
  };

  const settingsUrl = (teamId: number, deviceId: number) =>
    `/api/deviceSettings/enhanced/deviceSettings/${teamId}/${deviceId}`;
  const row = (metric_key: string, extra: Record<string, unknown> = {}) => ({
    metric_key,
    metric_name: metric_key,
    metric_units: 'x',
    is_enabled: true,
    retention_days: 90,
    ...extra,
  });
  /** The team's Fitbit Sense with two settings (distance disabled, SpO2), for the tests that must leave a list intact. */
  const twoSettings = async (a: Awaited<ReturnType<typeof newTeam>>) => {
    const put = await a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${a.sense.id}`, {
      settings: [row('distance', { is_enabled: false, retention_days: undefined }), row('spo2')],
    });
    expect(put.statusCode, put.body).toBe(200);
  };

  it('the catalog lists the issue’s metrics per device type in the provider’s units', async () => {
    const a = await newTeam();
    const { sense } = a;
    const res = await a.as.Sys_Admin.get(
      `/api/deviceSettings/enhanced/availableMetrics/${a.teamId}/${sense.id}/fitness_tracker`,
    );
    expect(res.statusCode).toBe(200);
    const metrics = res.json() as Array<{
      metric_key: string;
      units: string;
      default_retention_days: number;
    }>;
    expect(metrics.map((m) => m.metric_key).sort()).toEqual(
      [
        'breathing_rate',
        'calories',
        'cardio_score',
        'distance',
        'floors',
        'heart_rate_intraday',
        'hrv',
        'minutes_fairly_active',
        'minutes_lightly_active',
        'minutes_sedentary',
        'minutes_very_active',
        'resting_heart_rate',
        'skin_temperature',
        'sleep_duration',
        'sleep_stages',
        'spo2',
        'steps',
        'steps_intraday',
        'heart_rate_1sec',
        'hrv_intraday',
      ].sort(),
    );
    expect(metrics.find((m) => m.metric_key === 'distance')?.units).toBe('km');
    expect(metrics.every((m) => m.default_retention_days === 30)).toBe(true);
    const catalog = (await a.as.Sys_Admin.get('/api/deviceSettings/enhanced/metricCatalog')).json() as Array<{
      device_type: string;
      metric_key: string;
      units: string | null;
    }>;
    const keysOf = (type: string) =>
      catalog
        .filter((m) => m.device_type === type)
        .map((m) => m.metric_key)
        .sort();
    expect(keysOf('scale')).toEqual(['bmi', 'body_fat', 'weight']);
    expect(keysOf('blood_pressure')).toEqual(['diastolic', 'pulse', 'systolic']);
    expect(keysOf('cgm')).toEqual(['calibrations', 'egv', 'egv_trend', 'events']);
    expect(catalog.find((m) => m.metric_key === 'egv')?.units).toBe('mg/dL');
    expect(catalog.find((m) => m.metric_key === 'systolic')?.units).toBe('mmHg');
    expect(catalog.find((m) => m.metric_key === 'weight')?.units).toBe('kg');
  });

  it('is for Sys_Admin only: Admin, User and Viewer are refused every call', async () => {
    const a = await newTeam();
    const { sense } = a;
    for (const role of ['Admin', 'User', 'Viewer'] as const) {
      expect((await a.as[role].get(settingsUrl(a.teamId, sense.id))).statusCode).toBe(403);
      expect(
        (await a.as[role].put(`/api/deviceSettings/${a.teamId}/${sense.id}`, { settings: [row('steps')] }))
          .statusCode,
      ).toBe(403);
    }
    expect((await t.client().get(settingsUrl(a.teamId, sense.id))).statusCode).toBe(401);
  });

  it('a device of another team is 404 and the PUT changes nothing there', async () => {
    const a = await newTeam();
    const { sense } = a;
    const b = await newTeam();
    const bDevice: Device = (await b.as.Sys_Admin.get(`/api/teamSupportedDevices/${b.teamId}`)).json()[0];
    expect((await a.as.Sys_Admin.get(settingsUrl(a.teamId, bDevice.id))).statusCode).toBe(404);
    const put = await a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${bDevice.id}`, {
      settings: [row('steps')],
    });
    expect(put.statusCode).toBe(404);
    expect(put.json().message).toBe(DEVICE_METRICS_MESSAGES.deviceNotFound);
    expect((await b.as.Sys_Admin.get(settingsUrl(b.teamId, bDevice.id))).json()).toEqual([]);
    const wrongType = await a.as.Sys_Admin.get(
      `/api/deviceSettings/enhanced/availableMetrics/${a.teamId}/${sense.id}/cgm`,
    );
    expect(wrongType.statusCode).toBe(404);
  });

  it('PUT replaces the whole list, and retention defaults to 30', async () => {
    const a = await newTeam();
    const { sense } = a;
    const first = await a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${sense.id}`, {
      settings: [row('steps'), row('distance', { is_enabled: false, retention_days: undefined })],
    });
    expect(first.statusCode).toBe(200);
    const second = await a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${sense.id}`, {
      settings: [row('distance', { is_enabled: false, retention_days: undefined }), row('spo2')],
    });
    expect(second.statusCode).toBe(200);
    const list = (await a.as.Sys_Admin.get(settingsUrl(a.teamId, sense.id))).json();
    expect(list.map((s: { metric_key: string }) => s.metric_key)).toEqual(['distance', 'spo2']);
    expect(list[0]).toMatchObject({ is_enabled: false, retention_days: 30 });
    expect(list[1]).toMatchObject({ is_enabled: true, retention_days: 90, metric_units: 'x' });
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('action', '=', 'device_metric_settings.replace')
      .where('entity_id', '=', String(sense.id))
      .execute();
    expect(audit).toEqual([
      { action: 'device_metric_settings.replace', entity_id: String(sense.id) },
      { action: 'device_metric_settings.replace', entity_id: String(sense.id) },
    ]);
  });

  it('refuses invalid rows with the spec’s messages, leaving the list intact', async () => {
    const a = await newTeam();
    const { sense } = a;
    const put = (settings: unknown[]) =>
      a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${sense.id}`, { settings });
    await twoSettings(a);
    const before = (await a.as.Sys_Admin.get(settingsUrl(a.teamId, sense.id))).json();
    expect(before).toHaveLength(2);

    const zero = await put([row('steps', { retention_days: 0 })]);
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain(DEVICE_METRICS_MESSAGES.retentionMin);
    const noName = await put([row('steps', { metric_name: '  ' })]);
    expect(noName.statusCode).toBe(400);
    expect(noName.body).toContain(DEVICE_METRICS_MESSAGES.nameRequired);
    const dup = await put([row('steps'), row('steps')]);
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toBe(DEVICE_METRICS_MESSAGES.duplicateMetric);
    const unknown = await put([row('nonsense_metric')]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain(DEVICE_METRICS_MESSAGES.unknownMetric);

    expect((await a.as.Sys_Admin.get(settingsUrl(a.teamId, sense.id))).json()).toEqual(before);
  });

  it('is atomic: a row the database refuses, or a failing audit row, leaves the old list intact', async () => {
    const a = await newTeam();
    const { sense } = a;
    await twoSettings(a);
    const before = (await a.as.Sys_Admin.get(settingsUrl(a.teamId, sense.id))).json();
    expect(before.length).toBe(2);
    // The first rows are valid; the last one overflows the integer column after the delete ran.
    const overflow = await a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${sense.id}`, {
      settings: [row('steps'), row('floors'), row('hrv', { retention_days: 3_000_000_000 })],
    });
    expect(overflow.statusCode).toBe(400);
    expect((await a.as.Sys_Admin.get(settingsUrl(a.teamId, sense.id))).json()).toEqual(before);

    const restore = await failAuditOf(t, 'device_metric_settings.replace');
    try {
      const res = await a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${sense.id}`, {
        settings: [row('steps')],
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect((await a.as.Sys_Admin.get(settingsUrl(a.teamId, sense.id))).json()).toEqual(before);
  });

  it('an empty list removes every setting', async () => {
    const a = await newTeam();
    const { sense } = a;
    await twoSettings(a);
    const res = await a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${sense.id}`, { settings: [] });
    expect(res.statusCode).toBe(200);
    expect((await a.as.Sys_Admin.get(settingsUrl(a.teamId, sense.id))).json()).toEqual([]);
  });
});
