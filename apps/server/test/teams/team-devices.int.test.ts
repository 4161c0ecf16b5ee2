import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('team device configuration', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  beforeAll(async () => {
    t = await createTestApp();
    a = await teamWithRoles(t, 'TU A');
    b = await teamWithRoles(t, 'TU B');
  });
  afterAll(() => t.close());

  it('team device configuration: own team readable, other teams 404 except for Sys_Admin', async () => {
    const brands = (await a.as.Viewer.get(`/api/teamAllowedDevices/${a.teamId}`)).json();
    expect(brands).toEqual([{ brand_name: 'Dexcom' }, { brand_name: 'Fitbit' }, { brand_name: 'Omron' }]);
    const devices = (await a.as.User.get(`/api/teamSupportedDevices/${a.teamId}`)).json();
    expect(devices.map((d: { device_name: string }) => d.device_name)).toContain('Fitbit Sense');
    expect((await a.as.Admin.get(`/api/teamAllowedDevices/${b.teamId}`)).statusCode).toBe(404);
    expect((await a.as.Sys_Admin.get(`/api/teamSupportedDevices/${b.teamId}`)).statusCode).toBe(200);
  });
});
