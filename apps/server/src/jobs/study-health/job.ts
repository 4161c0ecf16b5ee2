/*
 * Study health's hourly evaluation (issue #23 item 4): after the device
 * checks of the hour (device-health at :07), every trial's rules open and
 * close its alerts (evaluate-alerts.ts). Safe to run twice or on several
 * workers at once: an alert opens once (unique index), a close is idempotent.
 * The digest (item 5) every 15 minutes: each trial whose local time reached
 * its digest time gets its digest once per recipient and local date
 * (digest.ts), and any study-health mail still queued is sent (mail.ts).
 */
import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { sendDueDigests } from './digest.js';
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

export const studyHealthDigest = defineJob({
  name: 'study-health-digest',
  payload: z.object({}).strict(),
  handler: (ctx) => sendDueDigests(ctx),
  singletonKey: () => 'study-health-digest',
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 600,
  schedule: { cron: '*/15 * * * *', payload: {} },
});
