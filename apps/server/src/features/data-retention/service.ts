/*
 * Data Storage & Retention Settings (Sys_Admin, Admin; admin §2, §4): which
 * of the metrics a Sys_Admin enabled for the team's devices the team stores.
 * The team is the session's for everyone but a Sys_Admin: another team's id
 * is a 404 and changes nothing. A metric the Sys_Admin did not enable for a
 * device of that type is refused, so the team can never store it.
 */
import { type AddStorageMetricBody, DATA_RETENTION_MESSAGES } from '@trialwear/contract';
import { AppError, notFound } from '../../access/errors.js';
import { type Actor, requireTeam, type TeamScope, teamScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import * as repo from './repo.js';

async function requireDeviceType(db: Db, team: TeamScope, deviceType: string) {
  if (!(await repo.hasDeviceType(db, team, deviceType)))
    throw new AppError(404, DATA_RETENTION_MESSAGES.deviceTypeNotSupported, 'NotFound', {
      displayToUser: true,
    });
}

export function devices(ctx: AppContext, actor: Actor, teamId: number) {
  return repo.teamDevices(ctx.db, requireTeam(actor, teamId));
}

export async function retention(ctx: AppContext, actor: Actor, teamId: number) {
  const row = await repo.teamRetention(ctx.db, requireTeam(actor, teamId));
  if (!row) throw notFound('Team not found');
  return { retention_days: row.retention_days };
}

/** The spec's call has no team: the session's team is the one whose enabled metrics are offered. */
export async function storableMetrics(ctx: AppContext, actor: Actor, deviceType: string) {
  const metrics = await repo.enabledMetrics(ctx.db, teamScope(actor), deviceType);
  // In the catalog's order (by category, then as seeded), as the manager lists them; unknown keys last.
  return metrics.sort(
    (x, y) =>
      (x.category ?? '~').localeCompare(y.category ?? '~') ||
      (x.id ?? Number.MAX_SAFE_INTEGER) - (y.id ?? Number.MAX_SAFE_INTEGER),
  );
}

export async function selections(ctx: AppContext, actor: Actor, teamId: number, deviceType: string) {
  const team = requireTeam(actor, teamId);
  await requireDeviceType(ctx.db, team, deviceType);
  return repo.selections(ctx.db, team, deviceType);
}

/**
 * POST …/metric. A metric newly stored is synced at once for the team's
 * devices after the commit (`syncSoon`, from the jobs module), not at the
 * next 15-minute slot.
 */
export async function addMetric(
  ctx: AppContext,
  actor: Actor,
  teamId: number,
  deviceType: string,
  body: AddStorageMetricBody,
  syncSoon?: (teamId: number, metricKeys: string[]) => Promise<unknown>,
) {
  const team = requireTeam(actor, teamId);
  let stored: string | null = null;
  const result = await inTransaction(ctx, async ({ db }) => {
    await requireDeviceType(db, team, deviceType);
    const [enabled] = await repo.enabledMetrics(db, team, deviceType, body.metric_key);
    if (!enabled)
      throw new AppError(403, DATA_RETENTION_MESSAGES.metricNotEnabled, 'Forbidden', {
        displayToUser: true,
      });
    // Name, units and catalog id come from the Sys_Admin's setting, not from the body.
    const changed = await repo.upsertSelection(db, team, {
      device_type: deviceType,
      metric_key: enabled.metric_key,
      metric_name: enabled.metric_name,
      units: enabled.units,
      device_metric_id: enabled.id,
    });
    if (changed) {
      await recordActorAudit(db, actor, {
        action: 'team_storage.enable',
        entityType: 'team',
        entityId: team.teamId,
        after: { deviceType, metricKey: enabled.metric_key },
      });
      stored = enabled.metric_key;
    }
    return { message: 'Metric enabled' };
  });
  if (stored && syncSoon) await syncSoonLogged(() => syncSoon(team.teamId, [stored!]));
  return result;
}

/** A failure to enqueue is not the caller's: the 15-minute schedule syncs the devices anyway. */
async function syncSoonLogged(start: () => Promise<unknown>) {
  await start().catch((err: unknown) => {
    console.error(`[trialwear] could not start a sync: ${(err as Error)?.message ?? err}`);
  });
}

export async function removeMetric(
  ctx: AppContext,
  actor: Actor,
  teamId: number,
  deviceType: string,
  metricKey: string,
) {
  const team = requireTeam(actor, teamId);
  return inTransaction(ctx, async ({ db }) => {
    await requireDeviceType(db, team, deviceType);
    if (!(await repo.deleteSelection(db, team, deviceType, metricKey)))
      throw new AppError(404, DATA_RETENTION_MESSAGES.notSelected, 'NotFound', { displayToUser: true });
    await recordActorAudit(db, actor, {
      action: 'team_storage.disable',
      entityType: 'team',
      entityId: team.teamId,
      before: { deviceType, metricKey },
    });
    return { message: 'Metric disabled' };
  });
}
