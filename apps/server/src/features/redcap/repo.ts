/*
 * SQL of the REDCap feature (decision 048): a trial's settings, the push
 * lease, the push log, the daily values a push sends, and the trial's
 * participants by code for enrolment.
 */
import { type Insertable, sql } from 'kysely';
import type { TrialScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import type { RedcapSettingsTable } from '../../db/schema/redcap.js';

export type SettingsRow = NonNullable<Awaited<ReturnType<typeof findSettings>>>;

export function findSettings(db: Db, { trialId }: TrialScope) {
  return db.selectFrom('redcap_settings').selectAll().where('trial_id', '=', trialId).executeTakeFirst();
}

/** The trial's row under a lock: saves of one trial's settings take turns. */
export async function lockSettings(db: Db, { trialId }: TrialScope) {
  return db
    .selectFrom('redcap_settings')
    .selectAll()
    .where('trial_id', '=', trialId)
    .forUpdate()
    .executeTakeFirst();
}

/** What a save writes: the table's columns but the key, the lease and the bookkeeping; the field map as an object. */
export type SettingsValues = Omit<
  Insertable<RedcapSettingsTable>,
  'trial_id' | 'field_map' | 'push_lease_until' | 'updated_at' | 'updated_by'
> & { field_map: Record<string, string>; push_enabled: boolean };

export async function saveSettings(
  db: Db,
  { trialId }: TrialScope,
  v: SettingsValues,
  userId: number,
  now: Date,
) {
  const values = { ...v, field_map: JSON.stringify(v.field_map), updated_at: now, updated_by: userId };
  await db
    .insertInto('redcap_settings')
    .values({ trial_id: trialId, ...values })
    .onConflict((oc) => oc.column('trial_id').doUpdateSet(values))
    .execute();
}

/** Takes the trial's push lease (one push at a time); false when another push holds it. */
export async function claimPushLease(db: Db, { trialId }: TrialScope, seconds: number) {
  const r = await db
    .updateTable('redcap_settings')
    .set({ push_lease_until: sql`now() + make_interval(secs => ${seconds})` })
    .where('trial_id', '=', trialId)
    .where((eb) => eb.or([eb('push_lease_until', 'is', null), eb('push_lease_until', '<', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function releasePushLease(db: Db, { trialId }: TrialScope) {
  await db
    .updateTable('redcap_settings')
    .set({ push_lease_until: null })
    .where('trial_id', '=', trialId)
    .execute();
}

export async function startLogEntry(
  db: Db,
  { trialId }: TrialScope,
  e: { trigger: 'manual' | 'nightly'; from: string; to: string; attempt: number; userId: number | null },
) {
  const r = await db
    .insertInto('redcap_push_log')
    .values({
      trial_id: trialId,
      trigger: e.trigger,
      from_date: e.from,
      to_date: e.to,
      status: 'running',
      attempt: e.attempt,
      started_by: e.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function finishLogEntry(
  db: Db,
  { trialId }: TrialScope,
  id: number,
  e:
    | { status: 'done'; records: number; rows: number }
    | { status: 'failed'; error: string; willRetry: boolean },
) {
  await db
    .updateTable('redcap_push_log')
    .set(
      e.status === 'done'
        ? { status: 'done', records: e.records, rows: e.rows, finished_at: sql`now()` }
        : {
            status: 'failed',
            error: e.error.slice(0, 2000),
            will_retry: e.willRetry,
            finished_at: sql`now()`,
          },
    )
    .where('id', '=', id)
    .where('trial_id', '=', trialId)
    .execute();
}

/** The trial's last 100 pushes, newest first. */
export function listLog(db: Db, { trialId }: TrialScope) {
  return db
    .selectFrom('redcap_push_log as l')
    .leftJoin('users as u', 'u.id', 'l.started_by')
    .select([
      'l.id',
      'l.trigger',
      'l.from_date',
      'l.to_date',
      'l.status',
      'l.attempt',
      'l.will_retry',
      'l.records',
      'l.rows',
      'l.error',
      'l.started_at',
      'l.finished_at',
      'u.username',
    ])
    .where('l.trial_id', '=', trialId)
    .orderBy('l.id', 'desc')
    .limit(100)
    .execute();
}

/**
 * The trial's newest finished push (done or failed; a running one is not finished), while the trial
 * has REDCap settings: study health's redcapPush rule holds while it is a failure.
 */
export function newestFinishedPush(db: Db, { trialId }: TrialScope) {
  return db
    .selectFrom('redcap_push_log as l')
    .innerJoin('redcap_settings as s', 's.trial_id', 'l.trial_id')
    .select(['l.id', 'l.status', 'l.error', 'l.will_retry', 'l.finished_at'])
    .where('l.trial_id', '=', trialId)
    .where('l.status', 'in', ['done', 'failed'])
    .orderBy('l.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The trials whose nightly push is on, with their team (the job makes their system scopes). */
export function pushEnabledTrials(db: Db) {
  return db
    .selectFrom('redcap_settings as s')
    .innerJoin('trials as t', 't.id', 's.trial_id')
    .select(['s.trial_id', 't.team_id'])
    .where('s.push_enabled', '=', true)
    .orderBy('s.trial_id')
    .execute();
}

/** The attempt a nightly push of these dates is at: one more than its last failed try that was to be retried. */
export async function nightlyAttempt(db: Db, { trialId }: TrialScope, from: string, to: string) {
  const last = await db
    .selectFrom('redcap_push_log')
    .select(['attempt', 'status', 'will_retry'])
    .where('trial_id', '=', trialId)
    .where('trigger', '=', 'nightly')
    .where('from_date', '=', from)
    .where('to_date', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return last?.status === 'failed' && last.will_retry ? last.attempt + 1 : 1;
}

export interface DailySummaryRow {
  participant_id: number;
  /** The REDCap record id: the participant code's suffix. */
  record_id: string;
  local_date: string;
  steps: number | null;
  resting_heart_rate: number | null;
  sleep_minutes: number | null;
  wear_minutes: number | null;
  mean_glucose: number | null;
  weight: number | null;
}

/**
 * Per participant with a code suffix (the REDCap record id) and participant-local day from … to with at
 * least one value, the daily values a push sends, from the stored readings
 * (the provider's values as synced) and study health's device days:
 * steps and resting heart rate: the day's reading (the newest, when two
 * devices sent one); sleep minutes: the sum of the day's main sleeps;
 * weight: the day's last; mean glucose: the mean of the day's CGM values (1
 * decimal); wear minutes: the most of the participant's trackers.
 */
export async function dailySummaries(
  db: Db,
  { teamId, trialId }: TrialScope,
  from: string,
  to: string,
): Promise<DailySummaryRow[]> {
  const r = await sql<DailySummaryRow>`
    WITH p AS (
      SELECT id, participant_code_suffix FROM participants
      WHERE trial_id = ${trialId} AND team_id = ${teamId} AND participant_code_suffix IS NOT NULL
    ),
    r AS (
      SELECT d.participant_id, d.local_date,
        (array_agg(d.value ORDER BY d.measured_at DESC) FILTER (WHERE d.metric_key = 'steps'))[1] AS steps,
        (array_agg(d.value ORDER BY d.measured_at DESC)
           FILTER (WHERE d.metric_key = 'resting_heart_rate'))[1] AS resting_heart_rate,
        sum(d.value) FILTER (WHERE d.metric_key = 'sleep_duration') AS sleep_minutes,
        (array_agg(d.value ORDER BY d.measured_at DESC) FILTER (WHERE d.metric_key = 'weight'))[1] AS weight,
        round(avg(d.value) FILTER (WHERE d.metric_key = 'egv')::numeric, 1)::float8 AS mean_glucose
      FROM device_readings d JOIN p ON p.id = d.participant_id
      WHERE d.team_id = ${teamId}
        AND d.metric_key IN ('steps', 'resting_heart_rate', 'sleep_duration', 'weight', 'egv')
        AND d.local_date BETWEEN ${from}::date AND ${to}::date
        AND d.value IS NOT NULL
      GROUP BY d.participant_id, d.local_date
    ),
    w AS (
      SELECT h.participant_id, h.local_date, max(h.wear_minutes) AS wear_minutes
      FROM device_health_days h JOIN p ON p.id = h.participant_id
      WHERE h.local_date BETWEEN ${from}::date AND ${to}::date AND h.wear_minutes IS NOT NULL
      GROUP BY h.participant_id, h.local_date
    )
    SELECT p.id AS participant_id, p.participant_code_suffix AS record_id,
           to_char(coalesce(r.local_date, w.local_date), 'YYYY-MM-DD') AS local_date,
           r.steps, r.resting_heart_rate, r.sleep_minutes, w.wear_minutes, r.mean_glucose, r.weight
    FROM r FULL JOIN w ON w.participant_id = r.participant_id AND w.local_date = r.local_date
    JOIN p ON p.id = coalesce(r.participant_id, w.participant_id)
    ORDER BY p.participant_code_suffix, 3`.execute(db);
  return r.rows;
}

/** The trial's participants whose code is one of these: enrolment finds which records are already in. */
export function participantsByCode(db: Db, { teamId, trialId }: TrialScope, codes: readonly string[]) {
  if (codes.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('participants')
    .select(['id', 'participant_code', 'email'])
    .where('trial_id', '=', trialId)
    .where('team_id', '=', teamId)
    .where('participant_code', 'in', codes)
    .execute();
}

/** An enrolled participant's email from REDCap (the enrolment's update). */
export async function setParticipantEmail(
  db: Db,
  { teamId, trialId }: TrialScope,
  id: number,
  email: string,
) {
  await db
    .updateTable('participants')
    .set({ email })
    .where('id', '=', id)
    .where('trial_id', '=', trialId)
    .where('team_id', '=', teamId)
    .execute();
}
