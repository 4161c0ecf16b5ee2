/*
 * Device metrics manager (Sys_Admin; admin §2, §4): which metrics each team
 * device may store and for how long. The PUT replaces the device's whole
 * list in one transaction with its audit row, so a failing row (or audit)
 * leaves the old list as it was.
 */
import {
  DEVICE_METRICS_MESSAGES,
  type DeviceMetricSettingInput,
  putDeviceSettingsBodySchema,
} from '@trialwear/contract';
import { AppError, notFound } from '../../access/errors.js';
import { type Actor, requireTeam, type TeamScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import * as repo from './repo.js';

async function requireTeamDevice(db: Db, team: TeamScope, deviceId: number) {
  const device = await repo.findTeamDevice(db, team, deviceId);
  if (!device) throw notFound(DEVICE_METRICS_MESSAGES.deviceNotFound);
  return device;
}

const badRequest = (message: string) =>
  new AppError(400, message, 'ValidationError', { displayToUser: true });

export async function availableMetrics(
  ctx: AppContext,
  actor: Actor,
  teamId: number,
  deviceId: number,
  deviceType: string,
) {
  const device = await requireTeamDevice(ctx.db, requireTeam(actor, teamId), deviceId);
  if (device.device_type !== deviceType) throw notFound(DEVICE_METRICS_MESSAGES.deviceTypeMismatch);
  return repo.catalogOfType(ctx.db, deviceType);
}

export function metricCatalog(ctx: AppContext) {
  return repo.wholeCatalog(ctx.db);
}

export async function deviceSettings(ctx: AppContext, actor: Actor, teamId: number, deviceId: number) {
  await requireTeamDevice(ctx.db, requireTeam(actor, teamId), deviceId);
  return repo.settingsOf(ctx.db, deviceId);
}

/**
 * PUT: the whole list. Metrics newly enabled are synced at once for the
 * team's devices that now store them, after the commit (`syncSoon`, from the
 * jobs module), not at the next 15-minute slot.
 */
export async function replaceDeviceSettings(
  ctx: AppContext,
  actor: Actor,
  teamId: number,
  deviceId: number,
  body: { settings: DeviceMetricSettingInput[] },
  syncSoon?: (teamId: number, metricKeys: string[]) => Promise<unknown>,
) {
  const { settings } = putDeviceSettingsBodySchema.parse(body);
  const keys = settings.map((s) => s.metric_key);
  if (new Set(keys).size !== keys.length) throw badRequest(DEVICE_METRICS_MESSAGES.duplicateMetric);
  const known = await repo.knownKeys(ctx.db, keys);
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length) throw badRequest(`${DEVICE_METRICS_MESSAGES.unknownMetric} (${unknown.join(', ')})`);

  const team = requireTeam(actor, teamId);
  let enabledNow: string[] = [];
  const result = await inTransaction(ctx, async ({ db }) => {
    await requireTeamDevice(db, team, deviceId);
    await repo.lockDevice(db, deviceId);
    const before = await repo.settingsOf(db, deviceId);
    await repo.deleteSettings(db, deviceId);
    await repo.insertSettings(
      db,
      team,
      deviceId,
      settings.map((s) => ({
        metric_key: s.metric_key,
        metric_name: s.metric_name,
        metric_units: s.metric_units ?? null,
        is_enabled: s.is_enabled,
        retention_days: s.retention_days,
      })),
    );
    const after = await repo.settingsOf(db, deviceId);
    await recordActorAudit(db, actor, {
      action: 'device_metric_settings.replace',
      entityType: 'team_supported_device',
      entityId: deviceId,
      before: { teamId, settings: before.map(({ id: _id, ...s }) => s) },
      after: { teamId, settings: after.map(({ id: _id, ...s }) => s) },
    });
    const wasEnabled = new Set(before.filter((s) => s.is_enabled).map((s) => s.metric_key));
    enabledNow = after.filter((s) => s.is_enabled && !wasEnabled.has(s.metric_key)).map((s) => s.metric_key);
    return { message: 'Settings saved', settings: after };
  });
  // A failure to enqueue is not the caller's: the 15-minute schedule syncs the devices anyway.
  if (enabledNow.length && syncSoon)
    await syncSoon(teamId, enabledNow).catch((err: unknown) => {
      console.error(`[trialwear] could not start a sync: ${(err as Error)?.message ?? err}`);
    });
  return result;
}
