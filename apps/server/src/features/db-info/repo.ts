/*
 * SQL of the database info tables (Sys_Admin, read-only). Each table is one
 * SELECT naming exactly the admin §3 fields, so a secret column (password
 * hash, TOTP seed, token) can never slip in through a `*`. A participant's
 * email and notes are NULL where the team hides them, before the filter
 * runs, so the filter cannot reveal them either. Dates come back as text.
 */
import { DB_INFO_TABLES, type DbInfoCell, type DbInfoTable } from '@trialwear/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';

const hides = (field: 'email' | 'notes') =>
  sql`(tm.hidden_participant_fields IS NULL OR ${field} = ANY (tm.hidden_participant_fields))`;

const BASE: Record<DbInfoTable, RawBuilder<unknown>> = {
  teams: sql`
    SELECT t.id AS team_id, t.team_name, t.is_active,
           t.subscription_starts::text AS subscription_starts, t.subscription_ends::text AS subscription_ends,
           t.subscription_type, t.max_users,
           (SELECT count(*)::int FROM team_memberships m WHERE m.team_id = t.id) AS actual_num_of_users,
           t.max_trials,
           (SELECT count(*)::int FROM trials x WHERE x.team_id = t.id) AS actual_num_of_trials,
           t.max_participants,
           (SELECT count(*)::int FROM participants p WHERE p.team_id = t.id) AS actual_num_of_participants,
           t.team_admin_email, t.team_admin_phone, t.organization, t.notes,
           t.monthly_rate_per_participant::text AS monthly_rate_per_participant,
           t.retention_days, t.storage_location
    FROM teams t`,
  teamAllowedBrands: sql`
    SELECT b.team_id, t.team_name, b.brand_name, b.is_active
    FROM team_allowed_brands b JOIN teams t ON t.id = b.team_id`,
  teamSupportedDevices: sql`
    SELECT s.id, s.team_id, t.team_name, s.global_device_catalog_id, g.device_name, s.is_active, s.notes, g.device_type
    FROM team_supported_devices s
    JOIN teams t ON t.id = s.team_id
    JOIN global_device_catalog g ON g.id = s.global_device_catalog_id`,
  teamUserMappings: sql`
    SELECT m.user_id, m.team_id, u.username, u.email, u.first_name, u.last_name, t.team_name,
           u.username AS user_name, t.team_name AS team_name_stored, m.role, m.default_team,
           (u.last_selected_team_id = m.team_id) AS last_selected_team
    FROM team_memberships m
    JOIN users u ON u.id = m.user_id
    JOIN teams t ON t.id = m.team_id`,
  teamStorageSettings: sql`
    SELECT d.id, d.team_id, d.team_supported_device_id, d.metric_key, d.metric_name, d.is_enabled,
           concat_ws(', ', g.device_name, d.metric_units, d.retention_days || ' days') AS device_metrics
    FROM device_metric_settings d
    JOIN team_supported_devices s ON s.id = d.team_supported_device_id
    JOIN global_device_catalog g ON g.id = s.global_device_catalog_id`,
  users: sql`
    SELECT u.id AS user_id,
           (SELECT string_agg(t.team_name, ', ' ORDER BY t.team_name)
              FROM team_memberships m JOIN teams t ON t.id = m.team_id WHERE m.user_id = u.id) AS team_name,
           u.first_name, u.last_name, u.email, u.is_active, u.sfa_required, u.sfa_enabled, u.sfa_type,
           u.create_time::text AS create_time, u.organization
    FROM users u`,
  trials: sql`
    SELECT x.id AS trial_id, x.trial_name, x.trial_number, x.trial_notes, o.email AS owner_email,
           x.team_id AS the_team_id, t.team_name, x.creation_date::text AS creation_date
    FROM trials x
    JOIN teams t ON t.id = x.team_id
    LEFT JOIN users o ON o.id = x.owner_user_id`,
  participants: sql`
    SELECT p.id AS participant_id, p.team_id AS the_team_id, tm.team_name, p.trial_id, x.trial_name, x.trial_number,
           CASE WHEN ${hides('email')} THEN NULL ELSE p.email END AS email,
           p.gender, p.age::int AS age,
           CASE WHEN ${hides('notes')} THEN NULL ELSE p.notes END AS notes
    FROM participants p
    JOIN teams tm ON tm.id = p.team_id
    JOIN trials x ON x.id = p.trial_id`,
  participantDevices: sql`
    SELECT d.participant_id,
           CASE WHEN ${hides('email')} THEN NULL ELSE p.email END AS participant_email,
           tm.team_name, d.global_device_catalog_id, g.device_name, g.device_type,
           coalesce(g.manufacturer, initcap(d.provider)) AS manufacturer,
           d.authorization_status, d.authorization_date::text AS authorization_date,
           d.created_at::text AS created_at, d.updated_at::text AS updated_at, d.notes
    FROM participant_devices d
    JOIN participants p ON p.id = d.participant_id
    JOIN teams tm ON tm.id = p.team_id
    LEFT JOIN global_device_catalog g ON g.id = d.global_device_catalog_id`,
  globalDeviceCatalog: sql`
    SELECT g.id, g.manufacturer, g.device_type, g.device_name, g.context, g.description,
           g.created_at::text AS created_at, g.updated_at::text AS updated_at
    FROM global_device_catalog g`,
};

/** `%` and `_` in the filter are literal characters, not patterns. */
const likePattern = (filter: string) => `%${filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the table, ordered by its first column (then the whole row, so pages never overlap), and how many rows
 * match. The global filter matches any column's text: the row's own text form
 * (values only, never the column names).
 */
export async function tablePage(
  db: Db,
  table: DbInfoTable,
  q: { filter: string; offset: number; limit: number },
): Promise<{ rows: Record<string, DbInfoCell>[]; total: number }> {
  const where = q.filter ? sql`WHERE r::text ILIKE ${likePattern(q.filter)}` : sql``;
  const { rows } = await sql<{ row: Record<string, DbInfoCell>; total: number }>`
    WITH r AS (${BASE[table]})
    SELECT to_jsonb(r) AS row, count(*) OVER ()::int AS total
    FROM r ${where}
    ORDER BY r.${sql.ref(DB_INFO_TABLES[table].columns[0])}, r::text
    LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  if (rows.length) return { rows: rows.map((r) => r.row), total: rows[0]!.total };
  const count = await sql<{ total: number }>`
    WITH r AS (${BASE[table]}) SELECT count(*)::int AS total FROM r ${where}`.execute(db);
  return { rows: [], total: count.rows[0]?.total ?? 0 };
}
