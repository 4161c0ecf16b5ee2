/*
 * The admin CLI against a real database: one line of JSON on success, a clear
 * error and a non-zero exit otherwise. Most command lines run in this process
 * (run-cli.ts, exactly as the process runs it: milliseconds each); a real
 * child process where the process itself is the point — its stdout is one
 * line, its exit status, several at once. Each test makes the teams and users
 * it acts on (through the fixtures, not the CLI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTeam, createTestUser } from '../support/fixtures.js';
import { allMail, mailText } from '../support/mail.js';
import { cliInProcess, runCli, runCliAsync } from '../support/processes.js';
import { addParticipant, healthTeam, insertLink } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('admin CLI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const cli = (...args: string[]) => cliInProcess(t, ...args);
  const processCli = (...args: string[]) => runCli(t, ...args);

  it('create-team prints the id; hidden fields unset = both hidden, none = none', async () => {
    // A real process: its stdout is exactly one line of JSON.
    const a = processCli(
      'create-team',
      '--name',
      'Neuro Lab',
      '--max-participants',
      '40',
      '--retention-days',
      '90',
      '--allowed-brands',
      'Fitbit,Dexcom',
    );
    expect(a.code).toBe(0);
    expect(a.stdout.split('\n')).toHaveLength(1);
    const { id } = JSON.parse(a.stdout);
    const team = await t.ctx.db
      .selectFrom('teams')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(team).toMatchObject({
      team_name: 'Neuro Lab',
      max_participants: 40,
      retention_days: 90,
      hidden_participant_fields: null,
    });
    const b = JSON.parse((await cli('create-team', '--name', 'Open Lab', '--hidden-fields', 'none')).stdout);
    const open = await t.ctx.db
      .selectFrom('teams')
      .select('hidden_participant_fields')
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(open.hidden_participant_fields).toEqual([]);
  });

  it('create-user and add-membership', async () => {
    await createTestTeam(t, 'Member Lab');
    await createTestTeam(t, 'Member Open Lab');
    // A real process: the portal's own password cost (this process hashes at the tests' lowest).
    const u = processCli(
      'create-user',
      '--username',
      'lee',
      '--email',
      'lee@lab.example',
      '--password',
      'Strong-pw1!',
      '--first-name',
      'Lee',
      '--last-name',
      'Park',
      '--team',
      'Member Lab',
      '--role',
      'User',
      '--no-sfa',
    );
    expect(u.code).toBe(0);
    const { id } = JSON.parse(u.stdout);
    const user = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(user.sfa_required).toBe(false);
    // The CLI is a process of the portal's own: the portal's cost, not the tests' (passwords.ts).
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const m = await cli(
      'add-membership',
      '--username',
      'lee',
      '--team',
      'Member Open Lab',
      '--role',
      'Viewer',
    );
    expect(m.code).toBe(0);
    const roles = await t.ctx.db
      .selectFrom('team_memberships')
      .select('role')
      .where('user_id', '=', id)
      .orderBy('team_id')
      .execute();
    expect(roles.map((r) => r.role)).toEqual(['User', 'Viewer']);
  });

  it('refuses bad input with a clear message, non-zero exit, and no change', async () => {
    await createTestTeam(t, 'Refusal Lab');
    const cases: Array<[string[], RegExp]> = [
      [['create-team'], /--name is required/],
      [
        ['create-team', '--name', 'X', '--allowed-brands', 'Garmin'],
        /"Garmin" is not one of Fitbit, Omron, Dexcom/,
      ],
      [
        ['create-team', '--name', 'X', '--max-participants', 'many'],
        /--max-participants must be a whole number/,
      ],
      [['create-team', '--name', 'refusal lab'], /already exists/],
      [
        [
          'create-user',
          '--username',
          'zed',
          '--email',
          'zed@x.example',
          '--password',
          'short',
          '--first-name',
          'Z',
          '--last-name',
          'Z',
          '--team',
          'Refusal Lab',
          '--role',
          'User',
        ],
        /Password can not be less than 8 characters/,
      ],
      [
        [
          'create-user',
          '--username',
          'zed',
          '--email',
          'zed@x.example',
          '--password',
          'Strong-pw1!',
          '--first-name',
          'Z',
          '--last-name',
          'Z',
          '--team',
          'Nope',
          '--role',
          'User',
        ],
        /No team named "Nope"/,
      ],
      [
        [
          'create-user',
          '--username',
          'zed',
          '--email',
          'zed@x.example',
          '--password',
          'Strong-pw1!',
          '--first-name',
          'Z',
          '--last-name',
          'Z',
          '--team',
          'Refusal Lab',
          '--role',
          'Boss',
        ],
        /--role must be one of/,
      ],
      [
        ['add-membership', '--username', 'ghost', '--team', 'Refusal Lab', '--role', 'User'],
        /No user named "ghost"/,
      ],
      [['frobnicate'], /unknown command/],
      [['create-team', '--bogus'], /Unknown option/],
    ];
    const before = await t.ctx.db.selectFrom('teams').select('id').execute();
    for (const [args, message] of cases) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
    // The process: a usage error and a refused command exit non-zero with nothing on stdout.
    for (const [args, code] of [
      [['create-team', '--bogus'], 2],
      [['create-team', '--name', 'refusal lab'], 1],
    ] as const) {
      const r = processCli(...args);
      expect(r, args.join(' ')).toMatchObject({ code, stdout: '' });
      expect(r.stderr).toMatch(/^Error: /m);
    }
    expect(await t.ctx.db.selectFrom('teams').select('id').execute()).toHaveLength(before.length);
    expect(
      await t.ctx.db.selectFrom('users').select('id').where('username', '=', 'zed').execute(),
    ).toHaveLength(0);
  });

  it('unlock-user and require-sfa', async () => {
    const { id } = await createTestUser(t, {
      teamId: await createTestTeam(t, 'Unlock Lab'),
      username: 'kim',
      sfa: false,
    });
    await t.ctx.db
      .insertInto('login_lockouts')
      .values({
        username_key: 'kim',
        failed_attempts: 0,
        lock_count: 1,
        locked_until: new Date(Date.now() + 15 * 60_000),
        last_failed_at: new Date(),
      })
      .execute();
    expect(JSON.parse((await cli('unlock-user', '--username', 'kim')).stdout)).toMatchObject({
      ok: true,
      id,
      unlocked: true,
    });
    expect(JSON.parse((await cli('require-sfa', '--username', 'kim')).stdout)).toMatchObject({
      id,
      sfaRequired: true,
    });
    const user = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ sfa_required: true });
    expect(
      await t.ctx.db.selectFrom('login_lockouts').selectAll().where('username_key', '=', 'kim').execute(),
    ).toEqual([]);
    expect(JSON.parse((await cli('require-sfa', '--username', 'kim', '--off')).stdout)).toMatchObject({
      sfaRequired: false,
    });
    expect((await cli('unlock-user', '--username', 'ghost')).code).not.toBe(0);
  });

  it('set-allowed-brands replaces the brands and (de)activates their devices', async () => {
    await createTestTeam(t, 'Brands Lab', { allowedBrands: ['Fitbit', 'Dexcom'] });
    const r = await cli('set-allowed-brands', '--team', 'Brands Lab', '--allowed-brands', 'Omron');
    expect(r.code).toBe(0);
    const { id } = JSON.parse(r.stdout);
    const brands = await t.ctx.db
      .selectFrom('team_allowed_brands')
      .select('brand_name')
      .where('team_id', '=', id)
      .execute();
    expect(brands.map((b) => b.brand_name)).toEqual(['Omron']);
    const devices = await t.ctx.db
      .selectFrom('team_supported_devices as s')
      .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
      .select(['g.manufacturer', 's.is_active'])
      .where('s.team_id', '=', id)
      .execute();
    expect(devices.filter((d) => d.is_active).every((d) => d.manufacturer === 'Omron')).toBe(true);
    expect(devices.some((d) => d.manufacturer === 'Fitbit' && !d.is_active)).toBe(true);
    expect(
      (await cli('set-allowed-brands', '--team', 'Brands Lab', '--allowed-brands', 'Garmin')).code,
    ).not.toBe(0);
  });

  it('seed-demo seeds an empty database once', async () => {
    // This database has a user, so seed-demo declines.
    await createTestUser(t, { teamId: await createTestTeam(t, 'Seeded Lab') });
    expect(JSON.parse((await cli('seed-demo')).stdout)).toMatchObject({ ok: true, seeded: false });
  });

  it("study-health-now evaluates the trial's rules at once: a broken link opens its alert; a due digest goes out", async () => {
    const h = await healthTeam(t, 'CLI health');
    const p = await addParticipant(t, h.team, h.trialId, 'cli-health@x.example');
    // An errored link: not checked (no provider call), and the always-on rule holds.
    await insertLink(t, h.team.teamId, p.id, { status: 'error' });
    // The Admin takes the digest; at 00:00 trial-local it is due whenever the test runs.
    const sub = await h.team.as.Admin.put(`/api/studyHealth/trials/${h.trialId}/subscription`, {
      digest: true,
    });
    expect(sub.statusCode, sub.body).toBe(200);
    const {
      isDefault: _d,
      updatedAt: _u,
      ...rules
    } = (await h.team.as.Admin.get(`/api/studyHealth/trials/${h.trialId}/rules`)).json();
    const put = await h.team.as.Admin.put(`/api/studyHealth/trials/${h.trialId}/rules`, {
      ...rules,
      timezone: 'UTC',
      digest: { enabled: true, localTime: '00:00' },
    });
    expect(put.statusCode, put.body).toBe(200);
    // The servers' keys, as every process that reads provider tokens must share them.
    const env = {
      ENCRYPTION_KEY: t.ctx.config.ENCRYPTION_KEY!,
      SESSION_SECRET: t.ctx.config.SESSION_SECRET!,
    };
    const r = await runCliAsync(t, env, 'study-health-now', '--trial', String(h.trialId));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      ok: true,
      command: 'study-health-now',
      checks: {},
      trials: 1,
      opened: 1,
      closed: 0,
      digestTrials: 1,
      digests: 1,
      mailed: 1,
    });
    const alerts = await t.ctx.db
      .selectFrom('health_alerts')
      .select(['rule_key', 'trial_id'])
      .where('participant_id', '=', p.id)
      .execute();
    expect(alerts).toEqual([{ rule_key: 'linkError', trial_id: h.trialId }]);
    // Into the outbox (DATA_DIR): the link's immediate e-mail and the digest, once each, even
    // when two more CLI processes run at once.
    const again = await Promise.all([
      runCliAsync(t, env, 'study-health-now', '--trial', String(h.trialId)),
      runCliAsync(t, env, 'study-health-now', '--trial', String(h.trialId)),
    ]);
    for (const a of again) {
      expect(a.code, a.stderr).toBe(0);
      expect(JSON.parse(a.stdout)).toMatchObject({ opened: 0, digests: 0, mailed: 0 });
    }
    const mails = (await allMail(t.dataDir))
      .map(mailText)
      .filter((m) => m.includes(`/StudyHealth?trialId=${h.trialId}\n`));
    expect(mails.map((m) => m.match(/^Subject: (.*)$/m)?.[1]?.split(':')[0]).sort()).toEqual([
      'TrialWear',
      'TrialWear study health',
    ]);
    expect((await cli('study-health-now', '--trial', 'x')).code).toBe(2);
  });
});
