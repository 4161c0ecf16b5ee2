/*
 * Study health's device checks (issue #23): every hour `device-health-schedule`
 * enqueues one `device-health` job per authorized participant device (one
 * waiting and one running per device across every server and worker, as
 * the sync); each re-reads the device's last 3 complete local days and today
 * (check-device.ts). Anything thrown (our database) is retried by pg-boss.
 */
import { z } from 'zod';
import * as syncRepo from '../device-sync/repo.js';
import { defineJob, enqueue } from '../job-definition.js';
import { checkDeviceHealth } from './check-device.js';

export const deviceHealth = defineJob({
  name: 'device-health',
  payload: z.object({ deviceId: z.number().int().positive() }).strict(),
  handler: (ctx, { deviceId }) => checkDeviceHealth(ctx, deviceId),
  singletonKey: ({ deviceId }) => `device-health-${deviceId}`,
  policy: 'stately',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  // Provider-bound, a few calls each: two at once per process.
  workers: 2,
  expireInSeconds: 300,
});

export const deviceHealthSchedule = defineJob({
  name: 'device-health-schedule',
  payload: z.object({}).strict(),
  async handler(ctx) {
    if (!ctx.boss) return { enqueued: 0 };
    let enqueued = 0;
    for (const d of await syncRepo.syncableDevices(ctx.db))
      if (await enqueue(ctx.boss, deviceHealth, { deviceId: d.id })) enqueued++;
    return { enqueued };
  },
  singletonKey: () => 'device-health-schedule',
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 600,
  // Hourly, away from the sync's quarter hours.
  schedule: { cron: '7 * * * *', payload: {} },
});
