/*
 * Study health's SQL (issue #23): a trial's rules, its alerts, the digest
 * opt-in, and the page's table. The table is two queries whatever the number
 * of participants — the participants with their devices and open alerts
 * (correlated lookups on indexed keys), and the stored days of the range —
 * never a query per participant.
 */
import type { HealthAlertStatus, HealthRuleKey } from '@trialwear/contract';
import { sql } from 'kysely';
import {
  type HealthAlertScope,
  type TeamScope,
  type TrialScope,
  type TrialsScope,
  trialIdInScope,
} from '../../access/index.js';
import type { Db } from '../../db/database.js';

// ---------------------------------------------------------------- rules

export function findRules(db: Db, { trialId }: TrialScope) {
  return db
    .selectFrom('trial_health_rules')
    .select(['timezone', 'rules', 'updated_at'])
    .where('trial_id', '=', trialId)
    .executeTakeFirst();
}

/** Locks the trial's rules row (if any) until the transaction ends: two saves apply one after the other. */
export function lockRules(db: Db, { trialId }: TrialScope) {
  return db
    .selectFrom('trial_health_rules')
    .select('trial_id')
    .where('trial_id', '=', trialId)
    .forUpdate()
    .executeTakeFirst();
}

export async function saveRules(
  db: Db,
  { trialId }: TrialScope,
  v: { timezone: string; rules: unknown; userId: number; now: Date },
) {
  await db
    .insertInto('trial_health_rules')
    .values({
      trial_id: trialId,
      timezone: v.timezone,
      rules: JSON.stringify(v.rules),
      updated_at: v.now,
      updated_by: v.userId,
    })
    .onConflict((oc) =>
      oc.column('trial_id').doUpdateSet({
        timezone: v.timezone,
        rules: JSON.stringify(v.rules),
        updated_at: v.now,
        updated_by: v.userId,
      }),
    )
    .execute();
}

/**
 * The stored zone of the team's first participant (by id) that has one: the
 * sync's zone of a link (the Fitbit profile's), else the zone the consent
 * stored on the link. Undefined when no participant has one.
 */
export async function firstParticipantZone(db: Db, { teamId }: TeamScope | TrialScope) {
  const row = await db
    .selectFrom('participants as p')
    .innerJoin('participant_devices as d', 'd.participant_id', 'p.id')
    .leftJoin('device_sync_state as s', 's.participant_device_id', 'd.id')
    .select(sql<string>`coalesce(s.time_zone, d.provider_timezone)`.as('zone'))
    .where('p.team_id', '=', teamId)
    .where(sql<boolean>`coalesce(s.time_zone, d.provider_timezone) IS NOT NULL`)
    .orderBy('p.id')
    .orderBy('d.id')
    .limit(1)
    .executeTakeFirst();
  return row?.zone;
}

// ---------------------------------------------------------------- alerts

function selectAlerts(db: Db) {
  return db
    .selectFrom('health_alerts as a')
    .innerJoin('participants as p', 'p.id', 'a.participant_id')
    .leftJoin('users as u', 'u.id', 'a.acknowledged_by')
    .select([
      'a.id',
      'a.participant_id',
      'p.participant_code',
      'a.rule_key',
      'a.opened_at',
      'a.closed_at',
      'a.acknowledged_at',
      'a.acknowledged_by',
      sql<string | null>`nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '')`.as(
        'acknowledged_by_name',
      ),
      'a.note',
      'a.detail',
    ]);
}
export type AlertRow = Awaited<ReturnType<ReturnType<typeof selectAlerts>['executeTakeFirstOrThrow']>>;

/**
 * A trial's alerts, open first, newest first; `status` narrows to one state, `not_closed` to open
 * and acknowledged (the compliance report's).
 */
export function listAlerts(
  db: Db,
  { teamId, trialId }: TrialScope,
  status?: HealthAlertStatus | 'not_closed',
) {
  let q = selectAlerts(db).where('a.trial_id', '=', trialId).where('a.team_id', '=', teamId);
  if (status === 'not_closed') q = q.where('a.closed_at', 'is', null);
  if (status === 'open') q = q.where('a.closed_at', 'is', null).where('a.acknowledged_at', 'is', null);
  if (status === 'acknowledged')
    q = q.where('a.closed_at', 'is', null).where('a.acknowledged_at', 'is not', null);
  if (status === 'closed') q = q.where('a.closed_at', 'is not', null);
  return q
    .orderBy(sql`a.closed_at IS NOT NULL`)
    .orderBy(sql`a.acknowledged_at IS NOT NULL`)
    .orderBy('a.opened_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
}

/** Open alerts (not closed, not acknowledged) of the trials in the scope: the navigation's badge. */
export async function countOpenAlerts(db: Db, scope: TrialsScope): Promise<number> {
  const row = await db
    .selectFrom('health_alerts as a')
    .select((eb) => eb.fn.countAll<string>().as('open'))
    .where('a.team_id', '=', scope.teamId)
    .where(trialIdInScope('a.trial_id', scope))
    .where('a.closed_at', 'is', null)
    .where('a.acknowledged_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.open);
}

export function findAlert(db: Db, { teamId, alertId }: HealthAlertScope) {
  return selectAlerts(db).where('a.id', '=', alertId).where('a.team_id', '=', teamId).executeTakeFirst();
}

/** Acknowledges the alert unless it already is (then undefined): a second acknowledgement never overwrites. */
export function acknowledgeAlert(
  db: Db,
  { teamId, alertId }: HealthAlertScope,
  v: { userId: number; note: string; now: Date },
) {
  return db
    .updateTable('health_alerts')
    .set({ acknowledged_at: v.now, acknowledged_by: v.userId, note: v.note })
    .where('id', '=', alertId)
    .where('team_id', '=', teamId)
    .where('acknowledged_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

// ---------------------------------------------------------------- digest opt-in

export async function findSubscription(db: Db, { trialId }: TrialScope, userId: number) {
  const row = await db
    .selectFrom('health_digest_subscriptions')
    .select('digest')
    .where('trial_id', '=', trialId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.digest;
}

export async function saveSubscription(
  db: Db,
  { trialId }: TrialScope,
  v: { userId: number; digest: boolean; now: Date },
) {
  await db
    .insertInto('health_digest_subscriptions')
    .values({ trial_id: trialId, user_id: v.userId, digest: v.digest, updated_at: v.now })
    .onConflict((oc) =>
      oc.columns(['trial_id', 'user_id']).doUpdateSet({ digest: v.digest, updated_at: v.now }),
    )
    .execute();
}

// ---------------------------------------------------------------- the page's table

export interface DeviceJson {
  id: number;
  provider: 'fitbit' | 'google_health' | 'omron' | 'dexcom';
  status: 'pending' | 'authorized' | 'revoked' | 'error';
  last_sync_at: string | null;
  battery_level: number | null;
}

/** The trial's participants with their devices' state and their open alerts' rules: one query. */
export function healthParticipants(db: Db, { teamId, trialId }: TrialScope) {
  return db
    .selectFrom('participants as p')
    .select([
      'p.id',
      'p.participant_code',
      sql<DeviceJson[]>`coalesce((
        SELECT json_agg(json_build_object(
                 'id', d.id, 'provider', d.provider, 'status', d.authorization_status,
                 'last_sync_at', s.provider_last_sync_at, 'battery_level', s.battery_level)
               ORDER BY d.id)
        FROM participant_devices d
        LEFT JOIN device_sync_state s ON s.participant_device_id = d.id
        WHERE d.participant_id = p.id), '[]'::json)`.as('devices'),
      sql<HealthRuleKey[]>`coalesce(ARRAY(
        SELECT a.rule_key FROM health_alerts a
        WHERE a.participant_id = p.id AND a.closed_at IS NULL
        ORDER BY a.rule_key), '{}')`.as('open_alerts'),
    ])
    .where('p.trial_id', '=', trialId)
    .where('p.team_id', '=', teamId)
    .orderBy(sql`p.participant_code IS NULL`)
    .orderBy('p.participant_code')
    .orderBy('p.id')
    .execute();
}

/**
 * A participant's stored days of a range: `days` is the JSON text of an
 * array of the API's day objects (`HealthDay`), one per device and date,
 * ordered by date and device, as PostgreSQL writes it; `repeated` says
 * whether a date has the days of two devices (they need merging into one).
 */
export interface StoredDays {
  participant_id: number;
  days: string;
  repeated: boolean;
}

/**
 * The stored days of the trial's participants' devices from `from` to `to`
 * (local dates): one query, one row per participant that has any. The days
 * are written as the API's JSON text by PostgreSQL, so a participant whose
 * dates each have one device's day goes into the answer as it is, without
 * being parsed and written again in Node (most of the 90-day page's time:
 * bench/study-health.ts, decision 035). `metrics_present` is stored as the
 * answer has it, a sorted set, with its JSON text (migration 020's trigger).
 */
export function healthDays(
  db: Db,
  { teamId, trialId }: TrialScope,
  from: string,
  to: string,
): Promise<StoredDays[]> {
  return db
    .selectFrom('device_health_days as h')
    .innerJoin('participants as p', 'p.id', 'h.participant_id')
    .select([
      'h.participant_id',
      // A date as text is ISO (YYYY-MM-DD) under PostgreSQL's default DateStyle, as the DATE
      // parser of db/database.ts assumes too; metrics_json is the trigger's JSON of the set.
      sql<string>`'[' || string_agg(concat(
          '{"date":"', h.local_date,
          '","wearMinutes":', coalesce(h.wear_minutes::text, 'null'),
          ',"cgmActivePercent":', coalesce(h.cgm_active_percent::text, 'null'),
          ',"bpReadings":', coalesce(h.bp_readings::text, 'null'),
          ',"metricsPresent":', h.metrics_json, '}'),
        ',' ORDER BY h.local_date, h.participant_device_id) || ']'`.as('days'),
      sql<boolean>`count(*) > count(DISTINCT h.local_date)`.as('repeated'),
    ])
    .where('p.trial_id', '=', trialId)
    .where('p.team_id', '=', teamId)
    .where('h.local_date', '>=', from)
    .where('h.local_date', '<=', to)
    .groupBy('h.participant_id')
    .execute();
}
