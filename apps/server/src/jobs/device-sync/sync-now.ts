/** `npm run cli -- sync-now [--participant ID]`: every authorized device (or one participant's) synced inline, one after the other. */
import type { AppContext } from '../../app-context.js';
import * as repo from './repo.js';
import { type DeviceSyncResult, syncDevice } from './sync-device.js';

export interface SyncNowSummary {
  devices: number;
  metrics: number;
  rowsUpserted: number;
  calls: number;
  errors: Array<{ deviceId: number; participantId: number; error: string }>;
  results: Array<Pick<DeviceSyncResult, 'deviceId' | 'provider' | 'status' | 'rowsUpserted'>>;
}

export async function syncNow(ctx: AppContext, participantId?: number): Promise<SyncNowSummary> {
  const summary: SyncNowSummary = {
    devices: 0,
    metrics: 0,
    rowsUpserted: 0,
    calls: 0,
    errors: [],
    results: [],
  };
  for (const d of await repo.syncableDevices(ctx.db, participantId)) {
    summary.devices++;
    let r: DeviceSyncResult;
    try {
      r = await syncDevice(ctx, d.id);
    } catch (err) {
      summary.errors.push({
        deviceId: d.id,
        participantId: d.participant_id,
        error: err instanceof Error ? err.message : String(err),
      });
      continue;
    }
    summary.metrics += r.metrics.length;
    summary.rowsUpserted += r.rowsUpserted;
    summary.calls += r.calls;
    for (const e of r.errors)
      summary.errors.push({ deviceId: d.id, participantId: d.participant_id, error: e });
    summary.results.push({
      deviceId: r.deviceId,
      provider: r.provider,
      status: r.status,
      rowsUpserted: r.rowsUpserted,
    });
  }
  return summary;
}
