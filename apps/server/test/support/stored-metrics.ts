/*
 * What a team stores, set up the way administrators do it: the Sys_Admin
 * enables metrics for the team's device (PUT /deviceSettings), then the team
 * selects them on the retention page (POST .../metric).
 */
import { expect } from 'vitest';
import type { TeamFixture } from './fixtures.js';

interface TeamDevice {
  team_supported_device_id: number;
  device_name: string;
  device_type: string;
}

/** Enable `enabled` for the named device (Sys_Admin) and select `selected` of them (Admin; default: all). */
export async function storeMetrics(
  team: TeamFixture,
  deviceName: string,
  enabled: string[],
  selected: string[] = enabled,
) {
  const base = '/api/dataStorageService';
  const devices = (await team.as.Admin.get(`${base}/team/${team.teamId}/devices`)).json() as TeamDevice[];
  const device = devices.find((d) => d.device_name === deviceName);
  if (!device) throw new Error(`${deviceName} is not a device of the team`);
  const put = await team.as.Sys_Admin.put(
    `/api/deviceSettings/${team.teamId}/${device.team_supported_device_id}`,
    {
      settings: enabled.map((k) => ({ metric_key: k, metric_name: k, metric_units: null, is_enabled: true })),
    },
  );
  expect(put.statusCode, put.body).toBe(200);
  for (const k of selected) {
    const res = await team.as.Admin.post(`${base}/team/${team.teamId}/device/${device.device_type}/metric`, {
      metric_key: k,
      metric_name: k,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  }
}
