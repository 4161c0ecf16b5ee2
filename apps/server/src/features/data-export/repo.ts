/*
 * SQL of the batch data export: the page's lists (trials the caller sees,
 * the team's devices, a trial's participants linked to a device's brand,
 * the metrics a device may export), and the export_jobs rows as the routes
 * see them (team-scoped reads, state changes guarded by the current state so
 * that a caller and a worker never both win). The worker's SQL (claim, lease,
 * queue, coverage) is in `jobs/data-export/repo.ts`.
 */
import { sql } from 'kysely';
import type { ExportJobScope, TeamScope, TrialScope, TrialsScope } from '../../access/index.js';
import { trialIdInScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { listTrialsInScope } from '../trials/repo.js';

/** The phase of a job waiting for a brand's hourly limit (issue #21): this prefix and the brand (Fitbit, Omron, Dexcom). */
export const PROVIDER_LIMIT_PHASE = 'provider limit:';

/** Link providers of each catalog manufacturer (the Fitbit brand has two back ends). */
export const PROVIDERS_OF_BRAND = {
  Fitbit: ['fitbit', 'google_health'],
  Omron: ['omron'],
  Dexcom: ['dexcom'],
} as const;

export function visibleTrials(db: Db, scope: TrialsScope) {
  return listTrialsInScope(db, scope);
}

/** The team's active supported devices with their catalog entry. */
export function teamDevices(db: Db, { teamId }: TeamScope) {
  return db
    .selectFrom('team_supported_devices as s')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .select(['s.id', 'g.device_name', 'g.device_type', 'g.manufacturer'])
    .where('s.team_id', '=', teamId)
    .where('s.is_active', '=', true)
    .orderBy('g.device_name')
    .orderBy('s.id')
    .execute();
}

export function findTeamDevice(db: Db, { teamId }: TeamScope, deviceId: number) {
  return db
    .selectFrom('team_supported_devices as s')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .select(['s.id', 'g.device_name', 'g.device_type', 'g.manufacturer'])
    .where('s.team_id', '=', teamId)
    .where('s.is_active', '=', true)
    .where('s.id', '=', deviceId)
    .executeTakeFirst();
}

/**
 * Participants of the trial (in the team) with a link of the brand that was
 * authorized at some point (revoked links keep their stored data).
 */
export function linkedParticipants(
  db: Db,
  { teamId, trialId }: TrialScope,
  manufacturer: keyof typeof PROVIDERS_OF_BRAND,
  onlyIds?: readonly number[],
) {
  return db
    .selectFrom('participants as p')
    .select(['p.id', 'p.participant_code', 'p.email'])
    .where('p.team_id', '=', teamId)
    .where('p.trial_id', '=', trialId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('participant_devices as d')
          .select('d.id')
          .whereRef('d.participant_id', '=', 'p.id')
          .where('d.team_id', '=', teamId)
          .where('d.provider', 'in', [...PROVIDERS_OF_BRAND[manufacturer]])
          .where('d.authorization_date', 'is not', null),
      ),
    )
    .$if(onlyIds !== undefined, (q) => q.where('p.id', 'in', onlyIds!.length ? [...onlyIds!] : [-1]))
    .orderBy(sql`coalesce(p.participant_code, '')`)
    .orderBy('p.id')
    .execute();
}

/**
 * The metrics of the device's type the team may export: in the catalog for
 * the type, enabled by the Sys_Admin for this device, and selected by the
 * team for the type.
 */
export function exportableMetrics(db: Db, { teamId }: TeamScope, deviceId: number, deviceType: string) {
  return db
    .selectFrom('metric_catalog as c')
    .innerJoin('device_metric_settings as d', (j) =>
      j
        .onRef('d.metric_key', '=', 'c.metric_key')
        .on('d.team_id', '=', teamId)
        .on('d.team_supported_device_id', '=', deviceId)
        .on('d.is_enabled', '=', true),
    )
    .innerJoin('team_storage_settings as t', (j) =>
      j
        .onRef('t.metric_key', '=', 'c.metric_key')
        .onRef('t.device_type', '=', 'c.device_type')
        .on('t.team_id', '=', teamId)
        .on('t.is_enabled', '=', true),
    )
    .select(['c.id', 'c.metric_key', 'c.metric_name', 'c.category', 'c.units'])
    .where('c.device_type', '=', deviceType)
    .orderBy('c.category')
    .orderBy('c.id')
    .execute();
}

// ---------------------------------------------------------------- jobs

/** The columns every job read answers (the service's and the worker's). */
export const JOB_COLUMNS = [
  'id',
  'team_id',
  'user_id',
  'trial_id',
  'status',
  'job_params',
  'file_size',
  'error_message',
  'created_at',
  'started_at',
  'completed_at',
  'expires_at',
  'rows_written',
  'rows_total',
  'phase',
  'cancel_requested_at',
  'attempts',
  'lease_owner',
  'lease_expires_at',
  'not_before',
  'storage_key',
  'manifest',
  'expired_at',
] as const;

export type JobRow = Awaited<ReturnType<typeof findJob>> & {};

export function insertJob(
  db: Db,
  { teamId, trialId }: TrialScope,
  job: { userId: number; params: unknown; now: Date },
) {
  return db
    .insertInto('export_jobs')
    .values({
      team_id: teamId,
      user_id: job.userId,
      trial_id: trialId,
      job_params: JSON.stringify(job.params),
      created_at: job.now,
      updated_at: job.now,
    })
    .returning(JOB_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The job of a checked scope (undefined only if deleted since the check). */
export function findJob(db: Db, { teamId, jobId }: ExportJobScope) {
  return db
    .selectFrom('export_jobs')
    .select(JOB_COLUMNS)
    .where('team_id', '=', teamId)
    .where('id', '=', jobId)
    .executeTakeFirst();
}

/** The team's jobs whose trial is in the scope (an all-trials scope: every job of the team). */
const jobsInScope = (db: Db, scope: TrialsScope) =>
  db
    .selectFrom('export_jobs')
    .where('team_id', '=', scope.teamId)
    .$if(scope.trialUserId !== null, (q) => q.where(trialIdInScope('trial_id', scope)));

export function latestJobs(db: Db, scope: TrialsScope, limit: number) {
  return jobsInScope(db, scope)
    .select(JOB_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * What the jobs panel names a job's participants and metrics by: the codes of
 * those participants whose trial is in the scope (another trial's stays a
 * number), and the team's names of the metrics (the catalog's for a metric
 * the team no longer lists).
 */
export async function jobLabels(db: Db, scope: TrialsScope, participantIds: number[], metricKeys: string[]) {
  const [participants, teamNames, catalogNames] = await Promise.all([
    participantIds.length === 0
      ? []
      : db
          .selectFrom('participants')
          .select(['id', 'participant_code'])
          .where('team_id', '=', scope.teamId)
          .where('id', 'in', participantIds)
          .$if(scope.trialUserId !== null, (q) => q.where(trialIdInScope('trial_id', scope)))
          .execute(),
    metricKeys.length === 0
      ? []
      : db
          .selectFrom('device_metric_settings')
          .distinctOn('metric_key')
          .select(['metric_key', 'metric_name'])
          .where('team_id', '=', scope.teamId)
          .where('metric_key', 'in', metricKeys)
          .orderBy('metric_key')
          .orderBy('id')
          .execute(),
    metricKeys.length === 0
      ? []
      : db
          .selectFrom('metric_catalog')
          .distinctOn('metric_key')
          .select(['metric_key', 'metric_name'])
          .where('metric_key', 'in', metricKeys)
          .orderBy('metric_key')
          .orderBy('id')
          .execute(),
  ]);
  return {
    codes: new Map(participants.map((p) => [p.id, p.participant_code])),
    metricNames: new Map([...catalogNames, ...teamNames].map((m) => [m.metric_key, m.metric_name])),
  };
}

export async function countJobs(db: Db, scope: TrialsScope) {
  const r = await jobsInScope(db, scope)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Cancel: only from pending or processing; the worker sees the status change and stops. */
export function markCancelled(db: Db, { teamId, jobId: id }: ExportJobScope, now: Date, message: string) {
  return db
    .updateTable('export_jobs')
    .set({
      status: 'cancelled',
      cancel_requested_at: now,
      completed_at: now,
      error_message: message,
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'processing'])
    .returning(JOB_COLUMNS)
    .executeTakeFirst();
}

export function deleteJob(db: Db, { teamId, jobId: id }: ExportJobScope) {
  return db
    .deleteFrom('export_jobs')
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('status', 'in', ['completed', 'failed', 'cancelled', 'expired'])
    .returning(['id', 'storage_key'])
    .executeTakeFirst();
}

/**
 * Serialise one user's export requests (transaction-scoped advisory lock; the
 * worker's team lock is 734012): the bound's count and the insert take turns.
 */
export async function lockUserRequests(db: Db, userId: number) {
  await sql`SELECT pg_advisory_xact_lock(734013, ${userId})`.execute(db);
}

/** The user's pending or processing jobs (in any team): what the per-user bound counts. */
export async function activeJobsOfUser(db: Db, userId: number) {
  const r = await db
    .selectFrom('export_jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ['pending', 'processing'])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether each of these trials of the team allows exports with real dates (decision 049). */
export async function exportPolicies(db: Db, { teamId }: TeamScope, trials: readonly { id: number }[]) {
  if (trials.length === 0) return new Map<number, boolean>();
  const rows = await db
    .selectFrom('trials')
    .select(['id', 'allow_identified_exports'])
    .where('team_id', '=', teamId)
    .where(
      'id',
      'in',
      trials.map((t) => t.id),
    )
    .execute();
  return new Map(rows.map((r) => [r.id, r.allow_identified_exports]));
}

/** The trial's export policy, locked for this transaction (the caller changes it and audits). */
export async function exportPolicyForUpdate(db: Db, { teamId, trialId }: TrialScope) {
  const row = await db
    .selectFrom('trials')
    .select('allow_identified_exports')
    .where('id', '=', trialId)
    .where('team_id', '=', teamId)
    .forUpdate()
    .executeTakeFirst();
  return row?.allow_identified_exports;
}

export async function setExportPolicy(db: Db, { teamId, trialId }: TrialScope, allowIdentified: boolean) {
  await db
    .updateTable('trials')
    .set({ allow_identified_exports: allowIdentified })
    .where('id', '=', trialId)
    .where('team_id', '=', teamId)
    .execute();
}
