/*
 * Study health's hourly evaluation (issue #23 item 4): after the device
 * checks of the hour (device-health at :07), every trial's rules open and
 * close its alerts (evaluate-alerts.ts). Safe to run twice or on several
 * workers at once: an alert opens once (unique index), a close is idempotent.
 */
import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { evaluateAlerts } from './evaluate-alerts.js';

export const studyHealthEvaluate = defineJob({
  name: 'study-health-evaluate',
  payload: z.object({}).strict(),
  handler: (ctx) => evaluateAlerts(ctx),
  singletonKey: () => 'study-health-evaluate',
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 600,
  schedule: { cron: '27 * * * *', payload: {} },
});
