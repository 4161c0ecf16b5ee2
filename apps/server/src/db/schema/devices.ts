/*
 * Kysely table types (see index.ts): Device links and their consent (OAuth
 * states, consent links, encrypted tokens), the device catalog, and what
 * each team stores of each metric.
 */
import type { LinkProvider } from '@trialwear/contract';
import type { Generated } from 'kysely';
import type { Timestamp } from './columns.js';

export interface ParticipantDevicesTable {
  id: Generated<number>;
  participant_id: number;
  /** The participant's team (kept equal by a composite foreign key). */
  team_id: number;
  global_device_catalog_id: number | null;
  provider: LinkProvider;
  authorization_status: Generated<'pending' | 'authorized' | 'revoked' | 'error'>;
  authorization_date: Timestamp | null;
  provider_user_id: string | null;
  /** A Google Health link's legacy Fitbit user id (identity.legacyUserId; migration 013). */
  legacy_user_id: string | null;
  provider_timezone: string | null;
  notes: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OAuthStatesTable {
  nonce: string;
  participant_id: number;
  provider: LinkProvider;
  code_verifier: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  consent_token_hash: string | null;
}

export interface ConsentLinksTable {
  token_hash: string;
  participant_id: number;
  team_id: number;
  provider: 'fitbit' | 'omron' | 'dexcom';
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ProviderTokensTable {
  participant_device_id: number;
  access_token_enc: string;
  refresh_token_enc: string | null;
  scope: string | null;
  token_type: string | null;
  expires_at: Timestamp | null;
  version: Generated<number>;
  updated_at: Timestamp;
}

export interface GlobalDeviceCatalogTable {
  id: Generated<number>;
  manufacturer: 'Fitbit' | 'Omron' | 'Dexcom';
  device_type: string;
  device_name: string;
  context: string | null;
  description: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TeamAllowedBrandsTable {
  team_id: number;
  brand_name: 'Fitbit' | 'Omron' | 'Dexcom';
  is_active: Generated<boolean>;
}

export interface TeamSupportedDevicesTable {
  id: Generated<number>;
  team_id: number;
  global_device_catalog_id: number;
  is_active: Generated<boolean>;
  notes: string | null;
}

export interface MetricCatalogTable {
  id: Generated<number>;
  metric_key: string;
  metric_name: string;
  units: string | null;
  device_type: string;
  category: string;
  description: string | null;
  available: Generated<boolean>;
  default_retention_days: Generated<number>;
}

export interface DeviceMetricSettingsTable {
  id: Generated<number>;
  team_id: number;
  team_supported_device_id: number;
  metric_key: string;
  metric_name: string;
  metric_units: string | null;
  is_enabled: Generated<boolean>;
  retention_days: Generated<number>;
}

export interface TeamStorageSettingsTable {
  id: Generated<number>;
  team_id: number;
  device_type: string;
  metric_key: string;
  metric_name: string;
  units: string | null;
  device_metric_id: number | null;
  is_enabled: Generated<boolean>;
  created_at: Generated<Date>;
}
