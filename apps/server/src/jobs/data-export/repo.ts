/*
 * SQL of the export job (the worker's side of export_jobs): team slots under
 * an advisory lock, the queue of jobs that may start, claim and lease
 * (heartbeat, ownership), the end states, expiry, and the span of dates
 * already fetched per device and metric. Every state change is guarded by
 * the lease owner and the current status, so a worker whose lease was taken
 * over or whose job was cancelled changes nothing.
 */
import { EXPORT_LIMITS } from '@trialwear/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { JOB_COLUMNS, PROVIDERS_OF_BRAND } from '../../features/data-export/repo.js';

/** Any team's job by id: for the worker, which is given only the id. */
export function jobById(db: Db, id: string) {
  return db.selectFrom('export_jobs').select(JOB_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The authorized-at-some-point devices of these participants of the brand (the fetch step). */
export function participantDevices(
  db: Db,
  teamId: number,
  participantIds: readonly number[],
  manufacturer: keyof typeof PROVIDERS_OF_BRAND,
) {
  return db
    .selectFrom('participant_devices')
    .select(['id', 'participant_id', 'provider', 'authorization_status'])
    .where('team_id', '=', teamId)
    .where('participant_id', 'in', participantIds.length ? [...participantIds] : [-1])
    .where('provider', 'in', [...PROVIDERS_OF_BRAND[manufacturer]])
    .where('authorization_date', 'is not', null)
    .orderBy('participant_id')
    .orderBy('id')
    .execute();
}

/** Serialise slot decisions of one team (transaction-scoped advisory lock). */
export async function lockTeamSlots(db: Db, teamId: number) {
  await sql`SELECT pg_advisory_xact_lock(734012, ${teamId})`.execute(db);
}

/** Processing jobs of the team whose lease is still alive (a dead worker's job frees its slot). */
export async function runningCount(db: Db, teamId: number, now: Date, exceptId?: string) {
  const r = await db
    .selectFrom('export_jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .where('status', '=', 'processing')
    .where('lease_expires_at', '>', now)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Jobs that may start: pending ones whose wait is over, and processing ones
 * whose worker died (lease expired), in turns across requesters (issue 21):
 * a job's turn is its requester's jobs running now plus its rank among that
 * requester's waiting jobs (1 for the oldest), so one user's backlog never
 * holds up a colleague's request; equal turns go first to the requester
 * served least recently (latest start in the last day; never served first),
 * then oldest first. Only turns up to EXPORT_LIMITS.runningPerUser may start:
 * a user with a running job waits for it, so the team's other slot stays
 * free for a colleague.
 */
export async function waitingJobs(db: Db, teamId: number | null, now: Date) {
  const team = teamId === null ? sql`TRUE` : sql`team_id = ${teamId}`;
  const r = await sql<{
    id: string;
    team_id: number;
    status: 'pending' | 'processing';
    created_at: Date;
    user_id: number | null;
    turn: string;
  }>`
    WITH waiting AS (
      SELECT id, team_id, user_id, status, created_at
      FROM export_jobs
      WHERE ${team}
        AND ((status = 'pending' AND (not_before IS NULL OR not_before <= ${now}))
          OR (status = 'processing' AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})))
    ), running AS (
      SELECT team_id, user_id, count(*) AS n
      FROM export_jobs
      WHERE ${team} AND status = 'processing' AND lease_expires_at > ${now}
      GROUP BY team_id, user_id
    ), served AS (
      SELECT team_id, user_id, max(started_at) AS last_started
      FROM export_jobs
      WHERE team_id IN (SELECT team_id FROM waiting)
        AND created_at > ${now}::timestamptz - interval '1 day'
        AND started_at IS NOT NULL
      GROUP BY team_id, user_id
    )
    SELECT * FROM (
      SELECT w.id, w.team_id, w.status, w.created_at, w.user_id,
        coalesce(r.n, 0) + row_number() OVER (PARTITION BY w.team_id, w.user_id ORDER BY w.created_at, w.id) AS turn,
        s.last_started
      FROM waiting w
      LEFT JOIN running r ON r.team_id = w.team_id AND r.user_id IS NOT DISTINCT FROM w.user_id
      LEFT JOIN served s ON s.team_id = w.team_id AND s.user_id IS NOT DISTINCT FROM w.user_id
    ) q
    -- A user's later jobs wait for their running one: a backlog never holds every slot of the team.
    WHERE turn <= ${EXPORT_LIMITS.runningPerUser}
    ORDER BY turn, last_started NULLS FIRST, created_at, id`.execute(db);
  return r.rows;
}

export function claim(db: Db, id: string, owner: string, now: Date, leaseUntil: Date) {
  return db
    .updateTable('export_jobs')
    .set((eb) => ({
      status: 'processing',
      lease_owner: owner,
      lease_expires_at: leaseUntil,
      attempts: eb('attempts', '+', 1),
      started_at: now,
      rows_written: '0',
      rows_total: null,
      phase: 'fetching',
      error_message: null,
      not_before: null,
      updated_at: now,
    }))
    .where('id', '=', id)
    .returning(JOB_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Renew the lease; answers whether this worker still owns a processing job. */
export async function heartbeat(db: Db, id: string, owner: string, now: Date, leaseUntil: Date) {
  const r = await db
    .updateTable('export_jobs')
    .set({ lease_expires_at: leaseUntil, updated_at: now })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

export interface JobProgress {
  rowsWritten: number;
  rowsTotal: number | null;
  phase: string;
}

/**
 * Write the run's progress (the archive writer's figure, throttled by the
 * caller) under the heartbeat's guard: only this worker's processing job, so
 * a late write after a cancel, a takeover or the completion changes nothing.
 * Answers whether the job is still this worker's.
 */
export async function writeProgress(db: Db, id: string, owner: string, now: Date, progress: JobProgress) {
  const r = await db
    .updateTable('export_jobs')
    .set({
      rows_written: String(progress.rowsWritten),
      rows_total: progress.rowsTotal === null ? null : String(progress.rowsTotal),
      phase: progress.phase,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Cheap check between heartbeats: is the job still this worker's and still processing? */
export async function stillOwned(db: Db, id: string, owner: string): Promise<boolean> {
  const r = await db
    .selectFrom('export_jobs')
    .select(['status', 'lease_owner'])
    .where('id', '=', id)
    .executeTakeFirst();
  return r?.status === 'processing' && r.lease_owner === owner;
}

export function complete(
  db: Db,
  id: string,
  owner: string,
  done: {
    now: Date;
    expiresAt: Date;
    size: number;
    storageKey: string;
    rows: number;
    manifest: unknown;
  },
) {
  return db
    .updateTable('export_jobs')
    .set({
      status: 'completed',
      completed_at: done.now,
      expires_at: done.expiresAt,
      file_size: String(done.size),
      storage_key: done.storageKey,
      file_path: done.storageKey,
      rows_written: String(done.rows),
      rows_total: String(done.rows),
      phase: null,
      manifest: JSON.stringify(done.manifest),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: done.now,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing')
    .returning(JOB_COLUMNS)
    .executeTakeFirst();
}

export function fail(db: Db, id: string, owner: string, now: Date, message: string) {
  return db
    .updateTable('export_jobs')
    .set({
      status: 'failed',
      completed_at: now,
      error_message: message,
      phase: null,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing')
    .returning(JOB_COLUMNS)
    .executeTakeFirst();
}

/**
 * Back to the queue, pending until notBefore (a transient failure, or the
 * provider asks to wait): the slot is freed. `giveBackAttempt`: the run did not fail
 * (it waits for a provider's limit), so its claim does not count against
 * MAX_ATTEMPTS: an export may wait out many rate limits.
 */
export function requeue(
  db: Db,
  id: string,
  owner: string,
  now: Date,
  notBefore: Date | null,
  note: string,
  { giveBackAttempt = false }: { giveBackAttempt?: boolean } = {},
) {
  return db
    .updateTable('export_jobs')
    .set((eb) => ({
      status: 'pending',
      not_before: notBefore,
      phase: note,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now,
      ...(giveBackAttempt ? { attempts: sql<number>`greatest(${eb.ref('attempts')} - 1, 0)` } : {}),
    }))
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
}

/** Jobs a worker is running now (processing, lease alive): their unfinished writes are in use. */
export async function runningJobIds(db: Db, now: Date): Promise<Set<string>> {
  const rows = await db
    .selectFrom('export_jobs')
    .select('id')
    .where('status', '=', 'processing')
    .where('lease_expires_at', '>', now)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Completed jobs whose file is past its keep time. */
export function dueForExpiry(db: Db, now: Date) {
  return db
    .selectFrom('export_jobs')
    .select(['id', 'team_id', 'storage_key', 'job_params'])
    .where('status', '=', 'completed')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .execute();
}

export function markExpired(db: Db, id: string, now: Date) {
  return db
    .updateTable('export_jobs')
    .set({ status: 'expired', expired_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'completed')
    .returning('id')
    .executeTakeFirst();
}

// ---------------------------------------------------------------- fetch coverage

export function coverage(db: Db, deviceIds: readonly number[]) {
  return db
    .selectFrom('export_fetch_coverage')
    .select(['participant_device_id', 'metric_key', 'from_date', 'to_date', 'fetched_at'])
    .where('participant_device_id', 'in', deviceIds.length ? [...deviceIds] : [-1])
    .execute();
}

/** Widen (or start) the span of local dates fetched for the device and metrics. */
export async function recordCoverage(
  db: Db,
  deviceId: number,
  metrics: readonly string[],
  from: string,
  to: string,
  now: Date,
) {
  for (const metric of metrics)
    await db
      .insertInto('export_fetch_coverage')
      .values({
        participant_device_id: deviceId,
        metric_key: metric,
        from_date: from,
        to_date: to,
        fetched_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['participant_device_id', 'metric_key']).doUpdateSet({
          // Contiguous or overlapping spans merge; a disjoint newer span replaces the old one.
          from_date: sql`CASE WHEN export_fetch_coverage.to_date >= ${from}::date - 1
                              THEN least(export_fetch_coverage.from_date, ${from}::date) ELSE ${from}::date END`,
          to_date: sql`greatest(export_fetch_coverage.to_date, ${to}::date)`,
          fetched_at: now,
        }),
      )
      .execute();
}

/**
 * The trial's sealed date-shift secret (decision 049), `sealedNew` stored first if it has none:
 * concurrent first exports agree on the one stored. `created` when this call stored it.
 */
export async function trialShiftKey(
  db: Db,
  teamId: number,
  trialId: number,
  sealedNew: string,
): Promise<{ sealed: string; created: boolean } | null> {
  const set = await db
    .updateTable('trials')
    .set({ date_shift_key_enc: sealedNew })
    .where('id', '=', trialId)
    .where('team_id', '=', teamId)
    .where('date_shift_key_enc', 'is', null)
    .executeTakeFirst();
  const row = await db
    .selectFrom('trials')
    .select('date_shift_key_enc')
    .where('id', '=', trialId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.date_shift_key_enc
    ? { sealed: row.date_shift_key_enc, created: Number(set.numUpdatedRows) > 0 }
    : null;
}
