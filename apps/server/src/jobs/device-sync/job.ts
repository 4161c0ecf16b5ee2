/*
 * Background sync (issue #11 item 4). Every 15 minutes `device-sync-schedule`
 * enqueues one `device-sync` job per authorized participant device, keyed by
 * the device id on a 'stately' queue: at most one waiting and one running
 * per device across every server and worker, so a device is never fetched
 * twice at once. The device job reads all its metrics (sync-device.ts). A
 * 429, a spent budget or a provider failure (5xx, no answer: exponential
 * back-off with jitter, kept per device) re-enqueues it for no earlier than
 * the next allowed call; a run that left days of a backfill (the intraday
 * metrics' 10 days a run) re-enqueues it a minute later; anything else
 * thrown (our database) is retried by pg-boss with its own exponential
 * back-off.
 */
import { z } from 'zod';
import { defineJob, enqueue } from '../job-definition.js';
import * as repo from './repo.js';
import { syncDevice } from './sync-device.js';

/** The pause between two runs of a backfill. */
export const BACKFILL_PAUSE_MS = 60_000;

/** Outcomes after which the device's job is enqueued again for its next allowed call. */
const RESUMED = new Set(['rate_limited', 'budget', 'unavailable']);

export const deviceSync = defineJob({
  name: 'device-sync',
  payload: z.object({ deviceId: z.number().int().positive() }).strict(),
  async handler(ctx, { deviceId }) {
    const result = await syncDevice(ctx, deviceId);
    if (ctx.boss && result.nextAllowedAt && RESUMED.has(result.status))
      await enqueue(ctx.boss, deviceSync, { deviceId }, { startAfter: new Date(result.nextAllowedAt) });
    // A backfill goes on a minute later rather than at the next 15-minute slot: a new link's 30 days
    // of minutes are stored within minutes; the device's hourly budget still bounds its calls.
    else if (ctx.boss && result.more && (result.status === 'synced' || result.status === 'partial'))
      await enqueue(
        ctx.boss,
        deviceSync,
        { deviceId },
        { startAfter: new Date(ctx.now().getTime() + BACKFILL_PAUSE_MS) },
      );
    return result;
  },
  singletonKey: ({ deviceId }) => `device-${deviceId}`,
  policy: 'stately',
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  // Provider-bound: four at once per process (each device still one at a time: the singleton key).
  workers: 4,
  // A device's sync takes seconds; a job left by a killed worker is retried after this. One whose
  // worker lost the database is reported by it once the database answers (runner.ts), so it is
  // retried within a minute of a restart; kept long so that the report's wait fits inside it.
  expireInSeconds: 300,
});

export const deviceSyncSchedule = defineJob({
  name: 'device-sync-schedule',
  payload: z.object({}).strict(),
  async handler(ctx) {
    if (!ctx.boss) return { enqueued: 0 };
    let enqueued = 0;
    for (const d of await repo.syncableDevices(ctx.db))
      if (await enqueue(ctx.boss, deviceSync, { deviceId: d.id })) enqueued++;
    return { enqueued };
  },
  singletonKey: () => 'device-sync-schedule',
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 600,
  schedule: { cron: '*/15 * * * *', payload: {} },
});
