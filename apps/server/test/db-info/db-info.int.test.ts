import { DB_INFO_TABLE_NAMES, DB_INFO_TABLES, TABLE } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { insertParticipants } from '../../src/features/participants/repo.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('database info', () => {
  let t: TestApp;
  let open: TeamFixture;
  let hidden: TeamFixture;
  beforeAll(async () => {
    t = await createTestApp();
    open = await teamWithRoles(t, 'Info Open', { hiddenFields: [] });
    hidden = await teamWithRoles(t, 'Info Hidden'); // unknown setting: email and notes hidden
    for (const f of [open, hidden]) {
      const trialId = (
        await f.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Info' })
      ).json().trialId;
      await insertParticipants(
        t.ctx.db,
        systemScope.trial('fixture', f.teamId, trialId),
        Array.from({ length: 60 }, (_, i) => ({
          email: `p${i}@${f === open ? 'open' : 'secret'}.example`,
          gender: 'None' as const,
          age: 20 + (i % 50),
          notes: f === open ? 'visible note' : 'secret note',
          suffix: null,
          code: null,
        })),
      );
    }
    // A second factor secret and a provider token exist, so that leaks would show.
    await t.ctx.db.updateTable('users').set({ sfa_secret_enc: 'SECRET-TOTP-SEED' }).execute();
  });
  afterAll(() => t.close());

  it('is for Sys_Admin only', async () => {
    for (const name of DB_INFO_TABLE_NAMES) {
      expect((await open.as.Admin.get(`/api/dbInfo/${name}`)).statusCode).toBe(403);
      expect((await open.as.Viewer.get(`/api/dbInfo/${name}`)).statusCode).toBe(403);
      expect((await t.client().get(`/api/dbInfo/${name}`)).statusCode).toBe(401);
    }
  });

  it('every table answers the fields of admin §3 and no secret', async () => {
    const users = await t.ctx.db.selectFrom('users').select(['password_hash']).execute();
    for (const name of DB_INFO_TABLE_NAMES) {
      const res = await open.as.Sys_Admin.get(`/api/dbInfo/${name}`);
      expect(res.statusCode, name).toBe(200);
      const body = res.json();
      expect(body.pageSize).toBe(TABLE.adminPageSize);
      for (const row of body.rows)
        expect(Object.keys(row).sort()).toEqual([...DB_INFO_TABLES[name].columns].sort());
      expect(res.body).not.toContain('SECRET-TOTP-SEED');
      expect(res.body).not.toMatch(/password|sfa_secret|token_version|\$argon2|\$2[aby]\$/);
      for (const u of users) expect(res.body).not.toContain(u.password_hash);
    }
  });

  it('pages at 50 on the server with the total', async () => {
    const first = (await open.as.Sys_Admin.get('/api/dbInfo/participants')).json();
    expect(first.total).toBe(120);
    expect(first.rows).toHaveLength(50);
    const third = (await open.as.Sys_Admin.get('/api/dbInfo/participants?page=2')).json();
    expect(third.rows).toHaveLength(20);
    const second = (await open.as.Sys_Admin.get('/api/dbInfo/participants?page=1')).json();
    const ids = [...first.rows, ...second.rows, ...third.rows].map(
      (r: { participant_id: number }) => r.participant_id,
    );
    expect(new Set(ids).size).toBe(120);
    expect((await open.as.Sys_Admin.get('/api/dbInfo/participants?page=9')).json()).toMatchObject({
      rows: [],
      total: 120,
    });
  });

  it('leaves out email (and notes) where the team hides them, also from the filter', async () => {
    const rows = [] as Array<{ team_name: string; email: string | null; notes: string | null }>;
    for (const page of [0, 1, 2])
      rows.push(...(await open.as.Sys_Admin.get(`/api/dbInfo/participants?page=${page}`)).json().rows);
    const ofHidden = rows.filter((r) => r.team_name === 'Info Hidden');
    const ofOpen = rows.filter((r) => r.team_name === 'Info Open');
    expect(ofHidden).toHaveLength(60);
    expect(ofHidden.every((r) => r.email === null && r.notes === null)).toBe(true);
    expect(ofOpen.every((r) => r.email?.endsWith('@open.example') && r.notes === 'visible note')).toBe(true);
    // Filtering on a hidden value finds nothing: it is never matched.
    expect((await open.as.Sys_Admin.get('/api/dbInfo/participants?filter=secret')).json().total).toBe(0);
    expect((await open.as.Sys_Admin.get('/api/dbInfo/participants?filter=open.example')).json().total).toBe(
      60,
    );
  });

  it('the global filter matches any column’s value, case-insensitively, with % and _ taken literally', async () => {
    const teams = (await open.as.Sys_Admin.get('/api/dbInfo/teams?filter=info%20HIDDEN')).json();
    expect(teams.total).toBe(1);
    expect(teams.rows[0]).toMatchObject({
      team_name: 'Info Hidden',
      actual_num_of_users: 4,
      actual_num_of_trials: 1,
      actual_num_of_participants: 60,
    });
    expect((await open.as.Sys_Admin.get('/api/dbInfo/teams?filter=%25')).json().total).toBe(0);
    const catalog = (await open.as.Sys_Admin.get('/api/dbInfo/globalDeviceCatalog?filter=omron')).json();
    expect(catalog.rows.map((r: { device_name: string }) => r.device_name).sort()).toEqual([
      'Omron Blood Pressure Monitor',
      'Omron Scale',
    ]);
    // Column names are not values: 'team_name' matches no team.
    expect((await open.as.Sys_Admin.get('/api/dbInfo/teams?filter=team_name')).json().total).toBe(0);
  });
});
