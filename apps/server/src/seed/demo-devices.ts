/*
 * The demo's devices (issue #24 item 6, issue #26): links granted in-process
 * by the mounted simulators, the fourth trial's Omron and Dexcom links, and
 * the metrics the demo team stores, set as a Sys_Admin and an Admin set them
 * (through the Device Metrics Manager's and the retention page's repos).
 */
import type { Brand } from '@trialwear/contract';
import { systemScope } from '../access/system.js';
import * as retentionRepo from '../features/data-retention/repo.js';
import * as linksRepo from '../features/device-links/repo.js';
import * as deviceMetricsRepo from '../features/device-metrics/repo.js';
import * as teamDevicesRepo from '../features/team-devices/repo.js';
import { simulatorGrant } from '../providers/simulator-grants.js';
import { saveTokens } from '../providers/token-store.js';
import type { SeedContext } from './demo.js';

/** The trial whose participants have Omron and Dexcom links, and who has which (the last has none). */
export const DEMO_HOME_TRIAL = '004';
export const DEMO_HOME_LINKS: Readonly<Record<string, ReadonlyArray<'omron' | 'dexcom'>>> = {
  'CHM-001': ['omron'],
  'CHM-002': ['omron', 'dexcom'],
  'CHM-003': ['dexcom'],
};
/** The links were authorized this many days ago: the first sync's backfill reads up to now. */
const HOME_LINKED_DAYS = 30;

/**
 * The simulator's consent, given in-process (no browser), and the link it
 * makes, as the consent callback makes it (the provider's catalog device, the
 * tokens as the token store keeps them). The sync and the hourly check read
 * it like any other, as long as this process runs (the simulators keep
 * tokens in memory). Without a mounted simulator the link has no tokens.
 */
export async function linkThroughSimulator(
  ctx: SeedContext,
  participant: { participantId: number; teamId: number },
  provider: 'fitbit' | 'omron' | 'dexcom',
  userId: string,
  authorizedAt: Date,
): Promise<number> {
  const client = ctx.providers.links[provider];
  const deviceId = await linksRepo.insertLink(ctx.db, {
    ...participant,
    catalogId: await linksRepo.catalogDeviceId(ctx.db, client.catalogDevice),
    provider,
    authorization_status: 'authorized',
    authorization_date: authorizedAt,
    // Omron's user is its id_token's subject; Dexcom names none (consent-flow.ts).
    provider_user_id: provider === 'dexcom' ? null : userId,
    legacy_user_id: null,
    updated_at: ctx.now(),
  });
  const grant = simulatorGrant(ctx.providers, provider);
  if (grant) {
    const scope = client.settings.scopes.join(' ');
    const t = grant(client.settings.clientId, userId, provider === 'fitbit' ? undefined : scope);
    await saveTokens(ctx, deviceId, {
      access_token: t.accessToken,
      ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}),
      expires_in: t.expiresIn,
      scope: t.scope || scope,
    });
  }
  return deviceId;
}

/** The fourth trial's Omron and Dexcom links (DEMO_HOME_LINKS), each a simulated person of its own. */
export async function seedHomeLinks(ctx: SeedContext, teamId: number, trialId: number) {
  const participants = await ctx.db
    .selectFrom('participants')
    .select(['id', 'participant_code'])
    .where('trial_id', '=', trialId)
    .orderBy('participant_code')
    .execute();
  const authorizedAt = addHours(ctx.now(), -24 * HOME_LINKED_DAYS);
  for (const p of participants)
    for (const provider of DEMO_HOME_LINKS[p.participant_code!] ?? [])
      await linkThroughSimulator(
        ctx,
        { participantId: p.id, teamId },
        provider,
        `demo-${provider}-${p.participant_code}`,
        authorizedAt,
      );
}

/**
 * The metrics the demo team stores, per catalog device (issue #24 item 6,
 * issue #26): the usual daily metrics of each device, and minute-level heart
 * rate and steps of its Fitbit trackers, as a Sys_Admin enables them
 * (Device Metrics Manager) and an Admin selects them (Data Storage &
 * Retention). The first sync stores them (startDemoSync). The Fitbit Aria
 * Scale stores nothing: the export page's "who must do what" stays in view.
 */
export const DEMO_STORED: ReadonlyArray<{ manufacturer: Brand; deviceType: string; metrics: string[] }> = [
  {
    manufacturer: 'Fitbit',
    deviceType: 'fitness_tracker',
    metrics: [
      'heart_rate_intraday',
      'steps_intraday',
      'steps',
      'distance',
      'resting_heart_rate',
      'sleep_duration',
    ],
  },
  { manufacturer: 'Omron', deviceType: 'blood_pressure', metrics: ['systolic', 'diastolic', 'pulse'] },
  { manufacturer: 'Omron', deviceType: 'scale', metrics: ['weight'] },
  { manufacturer: 'Dexcom', deviceType: 'cgm', metrics: ['egv'] },
];
/** The minute-level metrics among them (issue #24 item 6). */
export const DEMO_STORED_METRICS = ['heart_rate_intraday', 'steps_intraday'] as const;

export async function storeDemoMetrics(ctx: SeedContext, teamId: number) {
  const { db } = ctx;
  const team = systemScope.team('seed', teamId);
  for (const { manufacturer, deviceType, metrics } of DEMO_STORED) {
    // What the two pages list: the catalog's metrics of the type, the team's devices.
    const catalog = (await deviceMetricsRepo.catalogOfType(db, deviceType)).filter((m) =>
      metrics.includes(m.metric_key),
    );
    const devices = (await teamDevicesRepo.supportedDevices(db, team)).filter(
      (d) => d.manufacturer === manufacturer && d.device_type === deviceType,
    );
    // Device Metrics Manager: the Sys_Admin adds the device's metrics and enables them.
    for (const device of devices)
      await deviceMetricsRepo.insertSettings(
        db,
        team,
        device.id,
        catalog.map((m) => ({
          metric_key: m.metric_key,
          metric_name: m.metric_name,
          metric_units: m.units,
          is_enabled: true,
          retention_days: m.default_retention_days,
        })),
      );
    // Data Storage & Retention: the Admin ticks them for the device type.
    for (const m of catalog)
      await retentionRepo.upsertSelection(db, team, {
        device_type: m.device_type,
        metric_key: m.metric_key,
        metric_name: m.metric_name,
        units: m.units,
        device_metric_id: m.id,
      });
  }
}

const addHours = (d: Date, hours: number) => new Date(d.getTime() + hours * 3_600_000);
