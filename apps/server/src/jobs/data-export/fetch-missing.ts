/*
 * The export's first step: make sure the store holds the requested range for
 * the chosen participants and metrics. Per participant device of the export's
 * brand and metric, `export_fetch_coverage` says which local dates an earlier
 * export already fetched; what is not covered is read through the background
 * sync's own path (`syncDevice` with a range: the same budget, Retry-After
 * and token handling, the same idempotent upserts), so an export never calls
 * a provider more than the sync would, and a second export of the same range
 * calls nothing. A device the sync may not call yet (429, hourly budget
 * spent, 5xx back-off) makes the job wait until it may (ExportDeferred); a
 * revoked link exports what is stored.
 */

import type { ExportJobParams } from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { systemScope } from '../../access/system.js';
import type { AppContext } from '../../app-context.js';
import { findTeamDevice } from '../../features/data-export/repo.js';

export { PROVIDER_LIMIT_PHASE } from '../../features/data-export/repo.js';

import { earliestToday } from '../../features/data-export/service.js';
import { syncDevice } from '../device-sync/sync-device.js';
import * as repo from './repo.js';

/**
 * The device may not be called before `until` (its sync said so: a 429's
 * Retry-After, a spent budget, a 5xx back-off): the export waits for it.
 * `failure` is set when the provider failed (5xx, no answer): the wait is
 * then also a failed attempt of the export, retried at most MAX_ATTEMPTS times.
 */
export class ExportDeferred extends Error {
  constructor(
    readonly until: Date,
    readonly failure: string | null = null,
    /** The brand whose hourly limit the export waits for (issue #21), when the wait is for a limit. */
    readonly limitOf: string | null = null,
  ) {
    super(failure ?? `Waiting for the provider until ${until.toISOString()}`);
  }
}

/** Data of today (or later) is re-read when the last fetch is older than this. */
const FRESH_MS = 15 * 60_000;

export interface FetchSummary {
  devices: number;
  fetched: number;
  rowsUpserted: number;
  skipped: string[];
}

export async function fetchMissing(
  ctx: AppContext,
  teamId: number,
  params: ExportJobParams,
  signal: AbortSignal,
): Promise<FetchSummary> {
  const summary: FetchSummary = { devices: 0, fetched: 0, rowsUpserted: 0, skipped: [] };
  // The job runs for the scope its request was checked in (data-export service), stored with the job.
  const device = await findTeamDevice(ctx.db, systemScope.team('job', teamId), params.deviceId);
  if (!device) return summary;
  const links = (
    await repo.participantDevices(ctx.db, teamId, params.participantIds, device.manufacturer)
  ).filter((l) => l.authorization_status === 'authorized');
  summary.devices = links.length;
  const covered = await repo.coverage(
    ctx.db,
    links.map((l) => l.id),
  );
  const now = ctx.now();
  // Every participant's local today is on or after this date (UTC−12's).
  const today = earliestToday(now);
  for (const link of links) {
    if (signal.aborted) return summary;
    const missing = params.metrics.filter((m) => {
      const c = covered.find((x) => x.participant_device_id === link.id && x.metric_key === m);
      if (!c || c.from_date > params.startDate) return true;
      if (c.to_date < params.endDate && c.to_date < addDays(today, -1)) return true;
      // The range reaches the days that still grow: re-read unless just read.
      return params.endDate >= addDays(today, -1) && now.getTime() - c.fetched_at.getTime() > FRESH_MS;
    });
    if (missing.length === 0) continue;
    const r = await syncDevice(ctx, link.id, { from: params.startDate, metrics: missing, signal });
    summary.fetched++;
    summary.rowsUpserted += r.rowsUpserted;
    if (r.status === 'synced') {
      await repo.recordCoverage(ctx.db, link.id, r.metrics, params.startDate, today, ctx.now());
      continue;
    }
    // One rule for every other result: a device that may not be called yet holds the export
    // until it may, so the export never calls a provider sooner than the sync would.
    if (r.nextAllowedAt)
      throw new ExportDeferred(
        new Date(r.nextAllowedAt),
        r.status === 'unavailable' ? r.errors.join('; ') || 'The provider did not answer' : null,
        r.limited ? device.manufacturer : null,
      );
    // Nothing to wait for (refused reads, a revoked link): the export holds what is stored.
    summary.skipped.push(`participant ${link.participant_id}: ${r.status} ${r.errors.join('; ')}`.trim());
  }
  return summary;
}
