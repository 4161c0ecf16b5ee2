import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/audit/audit-log.js';
import { createTeam } from '../../src/features/teams/service.js';
import { createTestTeam, insertTrial } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('schema rules the specs imply', () => {
  let t: TestApp;
  let teamA: number;
  let teamB: number;
  let trialA: number;
  beforeAll(async () => {
    t = await createTestApp();
    teamA = await createTestTeam(t, 'Team A', { allowedBrands: ['Fitbit', 'Omron'] });
    teamB = await createTestTeam(t, 'Team B');
    trialA = await insertTrial(t, { teamId: teamA, number: '1', name: 'Alpha', code: 'ALP' });
  });
  afterAll(() => t.close());

  const participant = (over: Record<string, unknown> = {}) =>
    t.ctx.db
      .insertInto('participants')
      .values({ team_id: teamA, trial_id: trialA, email: `p${Math.random()}@x.example`, ...over } as never)
      .returning('id')
      .executeTakeFirstOrThrow();

  it('a new team gets its allowed brands and their catalog devices', async () => {
    const brands = await t.ctx.db
      .selectFrom('team_allowed_brands')
      .select('brand_name')
      .where('team_id', '=', teamA)
      .execute();
    expect(brands.map((b) => b.brand_name).sort()).toEqual(['Fitbit', 'Omron']);
    const devices = await t.ctx.db
      .selectFrom('team_supported_devices as s')
      .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
      .select('g.device_name')
      .where('s.team_id', '=', teamA)
      .execute();
    expect(devices.map((d) => d.device_name)).toEqual(
      expect.arrayContaining(['Fitbit Smartwatches & Trackers', 'Fitbit Sense', 'Omron Scale']),
    );
    expect(devices.map((d) => d.device_name)).not.toContain('Dexcom G7 CGM');
  });

  it('team names are unique regardless of case', async () => {
    await expect(createTeam(t.ctx.db, { name: 'team a' })).rejects.toThrow(/already exists/);
  });

  it('hidden participant fields default to unknown (NULL = both hidden)', async () => {
    const row = await t.ctx.db
      .selectFrom('teams')
      .select('hidden_participant_fields')
      .where('id', '=', teamB)
      .executeTakeFirstOrThrow();
    expect(row.hidden_participant_fields).toBeNull();
  });

  it('a participant cannot point at a trial of another team', async () => {
    await expect(
      t.ctx.db
        .insertInto('participants')
        .values({ team_id: teamB, trial_id: trialA, email: 'x@x.example' })
        .execute(),
    ).rejects.toThrow(/foreign key/);
  });

  it('participant codes are unique within a trial and suffixes are digits/underscore 1-12', async () => {
    await participant({ participant_code_suffix: '001', participant_code: 'ALP-001' });
    await expect(
      participant({ participant_code_suffix: '001', participant_code: 'ALP-001' }),
    ).rejects.toThrow(/unique/);
    await expect(
      participant({ participant_code_suffix: 'AB1', participant_code: 'ALP-AB1' }),
    ).rejects.toThrow(/check/);
    await expect(
      participant({ participant_code_suffix: '1234567890123', participant_code: 'ALP-1234567890123' }),
    ).rejects.toThrow(/check/);
  });

  it('participant email is unique in a team, case-insensitively', async () => {
    await participant({ email: 'Same@x.example' });
    await expect(participant({ email: 'same@X.example' })).rejects.toThrow(/unique/);
  });

  it('age and notes limits hold in the database too', async () => {
    await expect(participant({ age: 0 })).rejects.toThrow(/check/);
    await expect(participant({ age: 1000 })).rejects.toThrow(/check/);
    await expect(participant({ notes: 'n'.repeat(301) })).rejects.toThrow(/check/);
    await expect(participant({ gender: 'unknown' })).rejects.toThrow(/check/);
  });

  it('the audit log is append-only and hash-chained', async () => {
    await recordAudit(t.ctx.db, {
      userId: null,
      teamId: teamA,
      action: 'create',
      entityType: 'trial',
      entityId: trialA,
      after: { a: 1 },
    });
    await recordAudit(t.ctx.db, {
      userId: null,
      teamId: teamA,
      action: 'update',
      entityType: 'trial',
      entityId: trialA,
      before: { a: 1 },
      after: { a: 2 },
    });
    const rows = await t.ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.prev_hash).toBe('0'.repeat(64));
    expect(rows[1]!.prev_hash).toBe(rows[0]!.hash);
    expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    // The application role has no right to change it at all ...
    await expect(t.ctx.db.updateTable('audit_log').set({ action: 'x' }).execute()).rejects.toThrow(
      /permission denied/,
    );
    await expect(t.ctx.db.deleteFrom('audit_log').execute()).rejects.toThrow(/permission denied/);
    await expect(sql`TRUNCATE audit_log`.execute(t.ctx.db)).rejects.toThrow(/permission denied/);
    // ... and even its owner meets the append-only triggers.
    const owner = await t.connectAs('owner');
    try {
      await expect(owner.query("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
      await expect(owner.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
      await expect(owner.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    } finally {
      await owner.end();
    }
  });

  it('the team overview derives the actual counts', async () => {
    // A team of its own: one trial with two participants.
    const team = await createTestTeam(t, 'Overview Team');
    const trial = await insertTrial(t, { teamId: team, number: '1', name: 'Overview', code: 'OVR' });
    await t.ctx.db
      .insertInto('participants')
      .values([1, 2].map((n) => ({ team_id: team, trial_id: trial, email: `o${n}@x.example` })))
      .execute();
    const row = await t.ctx.db
      .selectFrom(
        sql<{
          id: number;
          actual_num_of_trials: number;
          actual_num_of_participants: number;
        }>`team_overview`.as('o'),
      )
      .selectAll()
      .where('o.id', '=', team)
      .executeTakeFirstOrThrow();
    expect(row.actual_num_of_trials).toBe(1);
    expect(row.actual_num_of_participants).toBe(2);
  });
});
