/*
 * The objects of the scope matrix (platform/scope-matrix.int.test.ts): a home
 * team whose four roles act, and the objects they may not see. Home: trials
 * 1, 2 and 3; its User and Viewer are trial users of 1 and 2, not 3; trial 3
 * has a participant with a Fitbit link and export jobs an Admin made. Another
 * team has the same (a trial, a participant with a link, a supported device,
 * jobs, a study-health alert, a locked User). Links, jobs and alerts are rows
 * inserted as the services would (participant_devices, export_jobs through the
 * repo's insertJob, health_alerts as the rules' evaluation opens them; a
 * completed job has its ZIP in the export storage). Also the whole-database snapshot of
 * the fuzz test, for "no row changed".
 */

import type pg from 'pg';
import { systemScope } from '../../src/access/system.js';
import { insertJob } from '../../src/features/data-export/repo.js';
import { exportStorage, storageKeyOf } from '../../src/features/data-export/service.js';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { createTestUser, type TeamFixture, teamWithRoles } from './fixtures.js';
import type { TestApp, TestClient } from './test-app.js';

/** The objects an actor of the home team may not reach, by the names the matrix's table uses. */
export const FOREIGN_OBJECTS = [
  'otherTeam.team',
  'otherTeam.user',
  'otherTeam.lockedUser',
  'otherTeam.trial',
  'otherTeam.participant',
  'otherTeam.link',
  'otherTeam.device',
  'otherTeam.job',
  'otherTeam.jobToDelete',
  'otherTeam.pendingJob',
  'otherTeam.alert',
  'sameTeam.trial3',
  'sameTeam.trial3.participant',
  'sameTeam.trial3.link',
  'sameTeam.trial3.job',
  'sameTeam.trial3.jobToDelete',
  'sameTeam.trial3.pendingJob',
  'sameTeam.trial3.alert',
] as const;
export type ForeignObject = (typeof FOREIGN_OBJECTS)[number];

/** The home team's own objects every role sees: they fill the parameters that do not carry the foreign id. */
export interface OwnObjects {
  team: number;
  trial1: number;
  participant1: number;
  /** A Fitbit device of the team (team_supported_devices). */
  device: number;
}

export interface ScopeWorld {
  home: TeamFixture;
  other: TeamFixture;
  /** A signed-in participant account (email verified), whose own participant in trial 1 has a link. */
  participant: TestClient;
  own: OwnObjects;
  foreign: Record<ForeignObject, number | string>;
}

async function emailOf(t: TestApp, userId: number) {
  const u = await t.ctx.db
    .selectFrom('users')
    .select(['email', 'username'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return u;
}

async function newTrial(team: TeamFixture, n: number) {
  const res = await team.as.Admin.post('/api/userTrials', {
    trialNumber: String(n),
    trialName: `Scope ${n}`,
  });
  if (res.statusCode !== 200) throw new Error(`trial: ${res.statusCode} ${res.body}`);
  return res.json().trialId as number;
}

async function newParticipant(team: TeamFixture, trialId: number, email: string) {
  const res = await team.as.Admin.post('/api/trialParticipants', { trialId, email });
  if (res.statusCode !== 200) throw new Error(`participant: ${res.statusCode} ${res.body}`);
  return res.json().participantId as number;
}

/** An authorized Fitbit link of the participant, as the consent callback stores it. */
async function newLink(t: TestApp, teamId: number, participantId: number) {
  const row = await t.ctx.db
    .insertInto('participant_devices')
    .values({
      participant_id: participantId,
      team_id: teamId,
      global_device_catalog_id: null,
      provider: 'fitbit',
      authorization_status: 'authorized',
      authorization_date: new Date(),
      provider_user_id: `SCOPE${participantId}`,
      legacy_user_id: null,
      provider_timezone: 'UTC',
      notes: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function fitbitDevice(t: TestApp, teamId: number) {
  const row = await t.ctx.db
    .selectFrom('team_supported_devices as s')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .select('s.id')
    .where('s.team_id', '=', teamId)
    .where('g.manufacturer', '=', 'Fitbit')
    .orderBy('s.id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * An export job of the trial made by the team's Admin: 'pending', or
 * 'completed' with its ZIP in the storage (so a download would stream it).
 */
async function newJob(
  t: TestApp,
  team: TeamFixture,
  trialId: number,
  participantId: number,
  deviceId: number,
  status: 'pending' | 'completed',
) {
  const now = new Date();
  const params = {
    fileName: `scope-${status}`,
    startDate: '2026-01-01',
    endDate: '2026-01-07',
    participantIds: [participantId],
    metrics: ['steps'],
    trialId,
    deviceId,
    exportMode: 'single-tab',
  };
  const job = await insertJob(t.ctx.db, systemScope.trial('fixture', team.teamId, trialId), {
    userId: team.userIds.Admin,
    params,
    now,
  });
  if (status === 'completed') {
    const key = storageKeyOf(team.teamId, job.id);
    const writer = await exportStorage(t.ctx.config).createWriter(key);
    writer.stream.write(Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000'), 'binary'));
    const { size } = await writer.commit();
    await t.ctx.db
      .updateTable('export_jobs')
      .set({
        status: 'completed',
        started_at: now,
        completed_at: now,
        expires_at: new Date(now.getTime() + 7 * 86_400_000),
        storage_key: key,
        file_size: String(size),
      })
      .where('id', '=', job.id)
      .execute();
  }
  return job.id;
}

/** An open, unacknowledged study-health alert of the participant (so an acknowledgement that got through would answer 200). */
async function newAlert(t: TestApp, teamId: number, trialId: number, participantId: number) {
  const row = await t.ctx.db
    .insertInto('health_alerts')
    .values({ team_id: teamId, trial_id: trialId, participant_id: participantId, rule_key: 'noSync' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Lock the user's account, as enough wrong passwords would (so an unlock that got through would answer 200). */
async function lock(t: TestApp, username: string) {
  const now = new Date();
  await t.ctx.db
    .insertInto('login_lockouts')
    .values({
      username_key: username.toLowerCase(),
      failed_attempts: 5,
      lock_count: 1,
      locked_until: new Date(now.getTime() + 3_600_000),
      last_failed_at: now,
    })
    .execute();
}

export async function buildScopeWorld(t: TestApp): Promise<ScopeWorld> {
  const home = await teamWithRoles(t, 'Scope Home', { hiddenFields: [] });
  const other = await teamWithRoles(t, 'Scope Other', { hiddenFields: [] });

  const [trial1, trial2, trial3] = [
    await newTrial(home, 1),
    await newTrial(home, 2),
    await newTrial(home, 3),
  ];
  for (const role of ['User', 'Viewer'] as const) {
    const { email } = await emailOf(t, home.userIds[role]);
    for (const trialId of [trial1, trial2]) {
      const res = await home.as.Admin.post('/api/trialUsers', { userEmail: email, trialId });
      if (res.statusCode !== 200) throw new Error(`trial user: ${res.statusCode} ${res.body}`);
    }
  }
  const participant1 = await newParticipant(home, trial1, 'scope-p1@home.example');
  const participant3 = await newParticipant(home, trial3, 'scope-p3@home.example');
  const homeDevice = await fitbitDevice(t, home.teamId);

  const otherTrial = await newTrial(other, 1);
  const otherParticipant = await newParticipant(other, otherTrial, 'scope-p@other.example');
  const otherDevice = await fitbitDevice(t, other.teamId);
  await lock(t, (await emailOf(t, other.userIds.User)).username);
  // A locked user of the home team too, so that the Sys_Admin's list of locked users is not empty.
  await lock(t, (await createTestUser(t, { teamId: home.teamId, sfa: false })).username);

  const job = (team: TeamFixture, trialId: number, pid: number, device: number, s: 'pending' | 'completed') =>
    newJob(t, team, trialId, pid, device, s);

  const foreign: Record<ForeignObject, number | string> = {
    'otherTeam.team': other.teamId,
    'otherTeam.user': other.userIds.Viewer,
    'otherTeam.lockedUser': other.userIds.User,
    'otherTeam.trial': otherTrial,
    'otherTeam.participant': otherParticipant,
    'otherTeam.link': await newLink(t, other.teamId, otherParticipant),
    'otherTeam.device': otherDevice,
    'otherTeam.job': await job(other, otherTrial, otherParticipant, otherDevice, 'completed'),
    'otherTeam.jobToDelete': await job(other, otherTrial, otherParticipant, otherDevice, 'completed'),
    'otherTeam.pendingJob': await job(other, otherTrial, otherParticipant, otherDevice, 'pending'),
    'otherTeam.alert': await newAlert(t, other.teamId, otherTrial, otherParticipant),
    'sameTeam.trial3': trial3,
    'sameTeam.trial3.participant': participant3,
    'sameTeam.trial3.link': await newLink(t, home.teamId, participant3),
    'sameTeam.trial3.job': await job(home, trial3, participant3, homeDevice, 'completed'),
    'sameTeam.trial3.jobToDelete': await job(home, trial3, participant3, homeDevice, 'completed'),
    'sameTeam.trial3.pendingJob': await job(home, trial3, participant3, homeDevice, 'pending'),
    'sameTeam.trial3.alert': await newAlert(t, home.teamId, trial3, participant3),
  };

  // A job of trial 1, which the User is on: their job list is not empty, so a foreign job's absence means something.
  await job(home, trial1, participant1, homeDevice, 'completed');
  // An alert of trial 1 too: the alert list the User and the Viewer read is not empty either.
  await newAlert(t, home.teamId, trial1, participant1);

  const account = { username: 'scope-participant', password: 'Patient-pw1!' };
  await t.client().post('/api/Participants/signup', {
    ...account,
    confirmPassword: account.password,
    email: 'scope-participant@x.example',
  });
  await settleAfterResponse();
  await t.ctx.db
    .updateTable('participant_accounts')
    .set({ email_verified_at: new Date() })
    .where('username', '=', account.username)
    .execute();
  const ownParticipant = await newParticipant(home, trial1, 'scope-participant@x.example');
  await newLink(t, home.teamId, ownParticipant);
  const participant = t.client();
  const login = await participant.post('/api/participantAuth/login', account);
  if (login.statusCode !== 200) throw new Error(`participant login: ${login.statusCode} ${login.body}`);

  return {
    home,
    other,
    participant,
    own: { team: home.teamId, trial1, participant1, device: homeDevice },
    foreign,
  };
}

/* ---------- "no row changed": the fuzz test's whole-database hash ---------- */

/** Tables a refused request may still write (sessions' last seen, the audit of the refusal, limits and lockouts). */
export const MAY_CHANGE_ON_REFUSAL = new Set([
  'sessions',
  'audit_log',
  'audit_chain_head',
  'login_lockouts',
  'rate_limit_hits',
]);
const IGNORED_COLUMNS: Record<string, string[]> = { users: ['updated_at', 'token_version'] };

/** Each table's row count and content hash (but MAY_CHANGE_ON_REFUSAL), as the owner sees them. */
export async function databaseSnapshotter(owner: pg.Client) {
  const { rows } = await owner.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const sql = rows
    .filter((r) => !MAY_CHANGE_ON_REFUSAL.has(r.table_name))
    .map(({ table_name: name }) => {
      const ignored = (IGNORED_COLUMNS[name] ?? []).map((c) => `'${c}'`).join(', ');
      const row = ignored ? `(to_jsonb(x) - ARRAY[${ignored}]::text[])` : 'to_jsonb(x)';
      return `SELECT '${name}' AS t, count(*)::int AS n, coalesce(sum(hashtext(${row}::text)::bigint), 0)::text AS h FROM "${name}" x`;
    })
    .join(' UNION ALL ');
  return async () => {
    await settleAfterResponse();
    const { rows: tables } = await owner.query<{ t: string; n: number; h: string }>(sql);
    return Object.fromEntries(tables.map((r) => [r.t, `${r.n}:${r.h}`]));
  };
}
