import { DATA_RETENTION_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeTargets } from '../../src/jobs/retention-purge/repo.js';
import { insertParticipant, insertTrial, type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface Device {
  team_supported_device_id: number;
  device_name: string;
  device_type: string;
}

describe('data storage and retention', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let aDevices: Device[];
  let bDevices: Device[];
  const base = '/api/dataStorageService';
  const trackerOf = (devices: Device[]) => devices.find((d) => d.device_name === 'Fitbit Sense')!;

  /**
   * A team like A: retention 730 days, and the Sys_Admin enables steps and distance (and lists
   * floors, disabled) on its tracker; nothing selected yet. Answers the team and its devices.
   */
  async function teamLikeA(name: string) {
    const team = await teamWithRoles(t, name, { retentionDays: 730 });
    const devices: Device[] = (await team.as.Admin.get(`${base}/team/${team.teamId}/devices`)).json();
    const put = await team.as.Sys_Admin.put(
      `/api/deviceSettings/${team.teamId}/${trackerOf(devices).team_supported_device_id}`,
      {
        settings: [
          { metric_key: 'steps', metric_name: 'Steps', metric_units: 'steps', is_enabled: true },
          { metric_key: 'distance', metric_name: 'Distance', metric_units: 'km', is_enabled: true },
          { metric_key: 'floors', metric_name: 'Floors', metric_units: 'floors', is_enabled: false },
        ],
      },
    );
    expect(put.statusCode).toBe(200);
    return { team, devices };
  }

  beforeAll(async () => {
    t = await createTestApp();
    ({ team: a, devices: aDevices } = await teamLikeA('Store A'));
    b = await teamWithRoles(t, 'Store B', { allowedBrands: ['Fitbit'] });
    bDevices = (await b.as.Admin.get(`${base}/team/${b.teamId}/devices`)).json();
    // The Sys_Admin enables steps on B's tracker.
    await b.as.Sys_Admin.put(
      `/api/deviceSettings/${b.teamId}/${trackerOf(bDevices).team_supported_device_id}`,
      {
        settings: [{ metric_key: 'steps', metric_name: 'Steps', metric_units: 'steps', is_enabled: true }],
      },
    );
  });
  afterAll(() => t.close());

  it('lists the team’s devices and its retention; no retention is null', async () => {
    expect(aDevices.map((d) => `${d.device_name} (${d.device_type})`)).toContain(
      'Fitbit Sense (fitness_tracker)',
    );
    expect(bDevices.every((d) => d.device_name.startsWith('Fitbit'))).toBe(true);
    expect((await a.as.Admin.get(`${base}/team/${a.teamId}/retention`)).json()).toEqual({
      retention_days: 730,
    });
    expect((await b.as.Admin.get(`${base}/team/${b.teamId}/retention`)).json()).toEqual({
      retention_days: null,
    });
  });

  it('is for Sys_Admin and Admin: User and Viewer are refused', async () => {
    for (const role of ['User', 'Viewer'] as const) {
      expect((await a.as[role].get(`${base}/team/${a.teamId}/devices`)).statusCode).toBe(403);
      expect(
        (
          await a.as[role].post(`${base}/team/${a.teamId}/device/fitness_tracker/metric`, {
            metric_key: 'steps',
            metric_name: 'Steps',
          })
        ).statusCode,
      ).toBe(403);
    }
  });

  it('offers only the metrics a Sys_Admin enabled for the team’s devices of the type, with catalog details', async () => {
    const metrics = (await a.as.Admin.get(`${base}/metrics/fitness_tracker`)).json();
    expect(metrics.map((m: { metric_key: string }) => m.metric_key)).toEqual(['steps', 'distance']);
    expect(metrics[0]).toMatchObject({ metric_name: 'Steps', category: 'Activity', units: 'steps' });
    expect((await a.as.Admin.get(`${base}/metrics/cgm`)).json()).toEqual([]);
  });

  it('says how long each metric is kept: its retention days, capped by the team’s (the purge’s rule)', async () => {
    const team = await teamWithRoles(t, 'Store kept', { retentionDays: 60 });
    const devices: Device[] = (await team.as.Admin.get(`${base}/team/${team.teamId}/devices`)).json();
    const put = await team.as.Sys_Admin.put(
      `/api/deviceSettings/${team.teamId}/${trackerOf(devices).team_supported_device_id}`,
      {
        settings: [
          // Over the team's 60 days: kept 60.
          {
            metric_key: 'steps',
            metric_name: 'Steps',
            metric_units: 'steps',
            is_enabled: true,
            retention_days: 90,
          },
          {
            metric_key: 'distance',
            metric_name: 'Distance',
            metric_units: 'km',
            is_enabled: true,
            retention_days: 20,
          },
        ],
      },
    );
    expect(put.statusCode, put.body).toBe(200);
    const metrics = (await team.as.Admin.get(`${base}/metrics/fitness_tracker`)).json();
    expect(
      Object.fromEntries(
        metrics.map((m: { metric_key: string; retention_days: number }) => [m.metric_key, m.retention_days]),
      ),
    ).toEqual({ steps: 60, distance: 20 });
    // The purge keeps each for as long (its targets are the pairs that hold readings).
    const trialId = await insertTrial(t, { teamId: team.teamId, number: '1', name: 'Kept', code: 'KPT' });
    const pid = await insertParticipant(t, { teamId: team.teamId, trialId, email: 'kept@x.example' });
    await t.ctx.db
      .insertInto('device_readings')
      .values(
        ['steps', 'distance'].map((metric_key) => ({
          participant_id: pid,
          team_id: team.teamId,
          metric_key,
          measured_at: new Date(),
          local_date: '2026-01-01',
          value: 1,
        })),
      )
      .execute();
    const targets = (await purgeTargets(t.ctx.db)).filter((x) => x.teamId === team.teamId);
    expect(Object.fromEntries(targets.map((x) => [x.metricKey, x.retentionDays]))).toEqual({
      steps: 60,
      distance: 20,
    });
  });

  it('enables and disables metrics for the team, audited; selections reflect them', async () => {
    // A team of its own: nothing selected, no audit rows yet.
    const { team: a } = await teamLikeA('Store A enables');
    const sel = `${base}/team/${a.teamId}/device/fitness_tracker/selections`;
    expect((await a.as.Admin.get(sel)).json()).toEqual([]);
    for (const key of ['steps', 'distance']) {
      const res = await a.as.Admin.post(`${base}/team/${a.teamId}/device/fitness_tracker/metric`, {
        metric_key: key,
        metric_name: key,
        units: null,
        device_metric_id: null,
      });
      expect(res.statusCode).toBe(200);
    }
    expect((await a.as.Admin.get(sel)).json()).toEqual([
      { metric_key: 'distance', is_enabled: true },
      { metric_key: 'steps', is_enabled: true },
    ]);
    // The stored name and units are the Sys_Admin's, not the body's.
    const stored = await t.ctx.db
      .selectFrom('team_storage_settings')
      .select(['metric_name', 'units', 'device_metric_id'])
      .where('team_id', '=', a.teamId)
      .where('metric_key', '=', 'steps')
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ metric_name: 'Steps', units: 'steps' });
    expect(stored.device_metric_id).not.toBeNull();

    const del = await a.as.Admin.delete(`${base}/team/${a.teamId}/device/fitness_tracker/metric/distance`);
    expect(del.statusCode).toBe(200);
    expect((await a.as.Admin.get(sel)).json()).toEqual([{ metric_key: 'steps', is_enabled: true }]);
    const again = await a.as.Admin.delete(`${base}/team/${a.teamId}/device/fitness_tracker/metric/distance`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(DATA_RETENTION_MESSAGES.notSelected);

    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('team_id', '=', a.teamId)
      .where('action', 'like', 'team_storage.%')
      .orderBy('id')
      .execute();
    expect(audit.map((r) => r.action)).toEqual([
      'team_storage.enable',
      'team_storage.enable',
      'team_storage.disable',
    ]);
  });

  it('refuses a metric the Sys_Admin did not enable (disabled or never listed), storing nothing', async () => {
    const storedKeys = async () =>
      (
        await t.ctx.db
          .selectFrom('team_storage_settings')
          .select('metric_key')
          .where('team_id', '=', a.teamId)
          .orderBy('metric_key')
          .execute()
      ).map((k) => k.metric_key);
    const before = await storedKeys();
    for (const key of ['floors', 'spo2']) {
      const res = await a.as.Admin.post(`${base}/team/${a.teamId}/device/fitness_tracker/metric`, {
        metric_key: key,
        metric_name: key,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(DATA_RETENTION_MESSAGES.metricNotEnabled);
    }
    expect(await storedKeys()).toEqual(before);
    expect(before).not.toContain('floors');
    expect(before).not.toContain('spo2');
  });

  it('a device type the team does not support is 404 on selections and changes', async () => {
    const sel = await b.as.Admin.get(`${base}/team/${b.teamId}/device/cgm/selections`);
    expect(sel.statusCode).toBe(404);
    expect(sel.json().message).toBe(DATA_RETENTION_MESSAGES.deviceTypeNotSupported);
  });

  it('an Admin acts on the session’s team only: another team’s id is 404 and changes nothing', async () => {
    expect((await a.as.Admin.get(`${base}/team/${b.teamId}/devices`)).statusCode).toBe(404);
    expect((await a.as.Admin.get(`${base}/team/${b.teamId}/retention`)).statusCode).toBe(404);
    expect(
      (await a.as.Admin.get(`${base}/team/${b.teamId}/device/fitness_tracker/selections`)).statusCode,
    ).toBe(404);
    const add = await a.as.Admin.post(`${base}/team/${b.teamId}/device/fitness_tracker/metric`, {
      metric_key: 'steps',
      metric_name: 'Steps',
    });
    expect(add.statusCode).toBe(404);
    await b.as.Admin.post(`${base}/team/${b.teamId}/device/fitness_tracker/metric`, {
      metric_key: 'steps',
      metric_name: 'Steps',
    });
    const del = await a.as.Admin.delete(`${base}/team/${b.teamId}/device/fitness_tracker/metric/steps`);
    expect(del.statusCode).toBe(404);
    expect(
      (await b.as.Admin.get(`${base}/team/${b.teamId}/device/fitness_tracker/selections`)).json(),
    ).toEqual([{ metric_key: 'steps', is_enabled: true }]);
  });

  it('a Sys_Admin may act on another team by its id', async () => {
    const select = await b.as.Admin.post(`${base}/team/${b.teamId}/device/fitness_tracker/metric`, {
      metric_key: 'steps',
      metric_name: 'Steps',
    });
    expect(select.statusCode).toBe(200);
    const res = await a.as.Sys_Admin.get(`${base}/team/${b.teamId}/device/fitness_tracker/selections`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ metric_key: 'steps', is_enabled: true }]);
  });
});
