/*
 * Sleep v1.2 (providers.md §1.7.6): the main sleep of each date by date or
 * date range (max 100 days), and the paginated list.
 */

import { instantOfLocal, wallClockMs } from '@trialwear/zone';
import type { FastifyInstance } from 'fastify';
import { fitbitDay } from '../fitbit-daily.js';
import { fitbitUserTimezone } from '../fitbit-data.js';
import { fitbitSleepStages } from '../fitbit-sleep-stages.js';
import { dayOrDays, err, type FitbitRouteKit, LIST_RULE, listPage } from './route-kit.js';

/** `levels.data`: each stage at its local wall-clock start (the clock as it then shows), and its length. */
function stagesOf(userId: string, day: string, tz: string, start: string) {
  let t = instantOfLocal(tz, start.slice(0, 19));
  return fitbitSleepStages(userId, day).map((x) => {
    const entry = { dateTime: wallClockMs(tz, t), level: x.level, seconds: x.minutes * 60 };
    t += x.minutes * 60_000;
    return entry;
  });
}

export function registerSleepRoutes(app: FastifyInstance, { guard, today, handle }: FitbitRouteKit) {
  // Sleep v1.2 by date or date range (max 100 days), and the paginated list.
  const sleepLogs = (userId: string, days: string[]) =>
    days.flatMap((day) => {
      const s = fitbitDay(userId, day).sleep;
      if (!s) return [];
      const inBed = s.minutesAsleep + s.wake;
      // The start is local wall-clock time; the end is the same elapsed time later in the user's zone
      // (the night clocks go forward, it shows one hour later on the clock).
      const { tz } = fitbitUserTimezone(userId);
      const end = wallClockMs(tz, instantOfLocal(tz, s.start.slice(0, 19)) + inBed * 60_000);
      return [
        {
          dateOfSleep: day,
          logId: Number(`${day.replaceAll('-', '')}${String(userId.charCodeAt(0)).padStart(3, '0')}`),
          logType: 'auto_detected',
          type: 'stages',
          isMainSleep: true,
          infoCode: 0,
          startTime: s.start,
          endTime: end,
          duration: inBed * 60_000,
          timeInBed: inBed,
          minutesAsleep: s.minutesAsleep,
          minutesAwake: s.wake,
          minutesToFallAsleep: 0,
          minutesAfterWakeup: 0,
          efficiency: Math.round((s.minutesAsleep / inBed) * 100),
          levels: {
            // The stages in order, 30-second aligned as the start is (§1.7.6); no short wakes.
            data: stagesOf(userId, day, tz, s.start),
            shortData: [],
            summary: {
              deep: { count: 4, minutes: s.deep, thirtyDayAvgMinutes: s.deep },
              light: { count: 25, minutes: s.light, thirtyDayAvgMinutes: s.light },
              rem: { count: 6, minutes: s.rem, thirtyDayAvgMinutes: s.rem },
              wake: { count: 20, minutes: s.wake, thirtyDayAvgMinutes: s.wake },
            },
          },
        },
      ];
    });

  app.get('/1.2/user/-/sleep/list.json', async (request, reply) => {
    const grant = await guard(request, reply, 'sleep');
    if (!grant) return reply;
    const q = request.query as Record<string, string | undefined>;
    const page = listPage(q, today(grant.userId), 100, (day) => fitbitDay(grant.userId, day).sleep !== null);
    if (!page) return reply.status(400).send(err('validation', LIST_RULE));
    return { sleep: sleepLogs(grant.userId, page.days), pagination: page.pagination };
  });

  app.get(
    '/1.2/user/-/sleep/date/*',
    handle('sleep', (grant, parts) => {
      const [a, b] = parts;
      const days = dayOrDays(a!, b, today(grant.userId), 100);
      const sleep = sleepLogs(grant.userId, days);
      const total = sleep.reduce((n, s) => n + s.minutesAsleep, 0);
      return {
        sleep,
        summary: {
          totalMinutesAsleep: total,
          totalSleepRecords: sleep.length,
          totalTimeInBed: sleep.reduce((n, s) => n + s.timeInBed, 0),
        },
      };
    }),
  );
}
