/*
 * Database info (/DbInfoPage, 'Sys Director Info Page'; admin §2, §3): ten
 * read-only tables, each from its own endpoint, paged at 50 on the server
 * with a global filter. Rows carry the fields of admin §3 and never a secret
 * (password hash, TOTP seed, token).
 */
import { z } from 'zod';
import { TABLE } from './constants.js';

export const DB_INFO_TITLE = 'Sys Director Info Page';

/** The ten tables: path segment under /api/dbInfo/, title, columns (admin §3, in order). */
export const DB_INFO_TABLES = {
  teams: {
    title: 'Team Table',
    columns: [
      'team_id',
      'team_name',
      'is_active',
      'subscription_starts',
      'subscription_ends',
      'subscription_type',
      'max_users',
      'actual_num_of_users',
      'max_trials',
      'actual_num_of_trials',
      'max_participants',
      'actual_num_of_participants',
      'team_admin_email',
      'team_admin_phone',
      'organization',
      'notes',
      'monthly_rate_per_participant',
      'retention_days',
      'storage_location',
    ],
  },
  teamAllowedBrands: {
    title: 'Team Allowed Brands',
    columns: ['team_id', 'team_name', 'brand_name', 'is_active'],
  },
  teamSupportedDevices: {
    title: 'Team Supported Devices',
    columns: [
      'id',
      'team_id',
      'team_name',
      'global_device_catalog_id',
      'device_name',
      'is_active',
      'notes',
      'device_type',
    ],
  },
  teamUserMappings: {
    title: 'Team-User Mappings',
    columns: [
      'user_id',
      'team_id',
      'username',
      'email',
      'first_name',
      'last_name',
      'team_name',
      'user_name',
      'team_name_stored',
      'role',
      'default_team',
      'last_selected_team',
    ],
  },
  teamStorageSettings: {
    title: 'Team Devices Data Storage Settings',
    columns: [
      'id',
      'team_id',
      'team_supported_device_id',
      'metric_key',
      'metric_name',
      'is_enabled',
      'device_metrics',
    ],
  },
  users: {
    title: 'User Table',
    columns: [
      'user_id',
      'team_name',
      'first_name',
      'last_name',
      'email',
      'is_active',
      'sfa_required',
      'sfa_enabled',
      'sfa_type',
      'create_time',
      'organization',
    ],
  },
  trials: {
    title: 'Trial Table',
    columns: [
      'trial_id',
      'trial_name',
      'trial_number',
      'trial_notes',
      'owner_email',
      'the_team_id',
      'team_name',
      'creation_date',
    ],
  },
  participants: {
    title: 'Participant Table',
    columns: [
      'participant_id',
      'the_team_id',
      'team_name',
      'trial_id',
      'trial_name',
      'trial_number',
      'email',
      'gender',
      'age',
      'notes',
    ],
  },
  participantDevices: {
    title: 'Participant Devices Table',
    columns: [
      'participant_id',
      'participant_email',
      'team_name',
      'global_device_catalog_id',
      'device_name',
      'device_type',
      'manufacturer',
      'authorization_status',
      'authorization_date',
      'created_at',
      'updated_at',
      'notes',
    ],
  },
  globalDeviceCatalog: {
    title: 'Global Device Catalog Table',
    columns: [
      'id',
      'manufacturer',
      'device_type',
      'device_name',
      'context',
      'description',
      'created_at',
      'updated_at',
    ],
  },
} as const;

export type DbInfoTable = keyof typeof DB_INFO_TABLES;
export const DB_INFO_TABLE_NAMES = Object.keys(DB_INFO_TABLES) as DbInfoTable[];

/** ?page= (0-based) &filter= ; the page size is the admin tables' 50 (admin §9). */
export const dbInfoQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  filter: z.string().max(200).default(''),
});
export type DbInfoQuery = z.input<typeof dbInfoQuerySchema>;

/** A cell: text, number, boolean or null (dates and numerics come as text). */
export const dbInfoCellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type DbInfoCell = z.infer<typeof dbInfoCellSchema>;

export const dbInfoPageSchema = z.object({
  rows: z.array(z.record(z.string(), dbInfoCellSchema)),
  total: z.number(),
  page: z.number(),
  pageSize: z.literal(TABLE.adminPageSize),
});
export type DbInfoPage = z.infer<typeof dbInfoPageSchema>;
