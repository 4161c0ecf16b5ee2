/*
 * The control routes of a person's tracker (fitbit-device-state.ts), the
 * same on the legacy Fitbit and the Google Health simulators, which share
 * what they set (one person, one tracker behind both APIs):
 *
 * - POST /_control/wear {userId, from?, days?, minutesPerDay | hoursPerDay}:
 *   minutes on the wrist of `days` (default 1, at most 366) local dates from
 *   `from` (default: the user's today); answers each date's truth;
 * - GET /_control/wear?userId=&from=&to=: the truth of wear per local date
 *   (minutes with a heart-rate sample, `fitbitWearMinutes`);
 * - POST /_control/battery {userId, level}: the tracker's battery level
 *   (0–100; the legacy `battery` bucket and Google's batteryStatus follow);
 * - POST /_control/stop-sync {userId, at?}: the tracker stops syncing at `at`
 *   (default: the simulated now); `at: null` syncs again (the backlog arrives).
 *
 * `userId` is resolved by the simulator (legacy id; on Google also the
 * healthUserId). A bad body answers 400 `{error}`.
 */
import { addDays, daysFrom } from '@trialwear/zone';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimClock } from '../clock.js';
import { fitbitDevices, fitbitLocal, fitbitTrackerLastSync, fitbitUserTimezone } from './fitbit-data.js';
import { setFitbitBattery, setFitbitWear, stopFitbitSync, syncStoppedAt } from './fitbit-device-state.js';
import { fitbitLocalDate, fitbitWearMinutes } from './fitbit-wear.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (s: unknown): s is string =>
  typeof s === 'string' && DATE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

class BadControl extends Error {}

export function registerDeviceControlRoutes(
  app: FastifyInstance,
  deps: {
    clock: SimClock;
    /** The legacy Fitbit user id a control call's `userId` names (throws when unknown). */
    userOf: (userId: string) => string;
  },
) {
  const { clock } = deps;
  const userOf = (id: unknown) => {
    if (typeof id !== 'string' || !id) throw new BadControl('userId is required');
    return deps.userOf(id);
  };
  const truth = (userId: string, dates: string[]) =>
    dates.map((date) => ({ date, wearMinutes: fitbitWearMinutes(userId, date) }));
  const guarded =
    <T>(fn: (body: T) => unknown) =>
    async (request: { body?: unknown; query?: unknown; method: string }, reply: FastifyReply) => {
      try {
        return fn((request.method === 'GET' ? request.query : request.body) as T);
      } catch (e) {
        if (e instanceof BadControl) return reply.status(400).send({ error: e.message });
        throw e;
      }
    };

  app.post(
    '/_control/wear',
    guarded<{ userId?: string; from?: string; days?: number; minutesPerDay?: number; hoursPerDay?: number }>(
      (b) => {
        const userId = userOf(b?.userId);
        const from = b.from ?? fitbitLocalDate(userId, clock.now());
        if (!isDate(from)) throw new BadControl(`from must be a date YYYY-MM-DD: ${String(from)}`);
        const days = b.days ?? 1;
        if (!Number.isInteger(days) || days < 1 || days > 366)
          throw new BadControl('days must be an integer from 1 to 366');
        const minutes = b.minutesPerDay ?? (b.hoursPerDay === undefined ? undefined : b.hoursPerDay * 60);
        if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0 || minutes > 1440)
          throw new BadControl('minutesPerDay (0–1440) or hoursPerDay (0–24) is required');
        const dates = Array.from({ length: days }, (_, i) => addDays(from, i));
        setFitbitWear(userId, dates, minutes);
        return { userId, days: truth(userId, dates) };
      },
    ),
  );

  app.get(
    '/_control/wear',
    guarded<{ userId?: string; from?: string; to?: string }>((q) => {
      const userId = userOf(q?.userId);
      const from = q.from ?? fitbitLocalDate(userId, clock.now());
      const to = q.to ?? from;
      if (!isDate(from) || !isDate(to) || to < from) throw new BadControl('from and to: dates, from ≤ to');
      if (daysFrom(from, to) > 366) throw new BadControl('at most 367 days');
      const dates = Array.from({ length: daysFrom(from, to) + 1 }, (_, i) => addDays(from, i));
      return { userId, days: truth(userId, dates) };
    }),
  );

  app.post(
    '/_control/battery',
    guarded<{ userId?: string; level?: number }>((b) => {
      const userId = userOf(b?.userId);
      if (typeof b.level !== 'number' || !(b.level >= 0 && b.level <= 100))
        throw new BadControl('level must be a number from 0 to 100');
      setFitbitBattery(userId, b.level);
      const tracker = fitbitDevices(userId, clock.now()).find((d) => d.type === 'TRACKER')!;
      return { userId, batteryLevel: tracker.batteryLevel, battery: tracker.battery };
    }),
  );

  app.post(
    '/_control/stop-sync',
    guarded<{ userId?: string; at?: string | null }>((b) => {
      const userId = userOf(b?.userId);
      let at: number | null;
      if (b.at === null) at = null;
      else if (b.at === undefined) at = clock.now().getTime();
      else {
        at = typeof b.at === 'string' ? Date.parse(b.at) : Number.NaN;
        if (Number.isNaN(at)) throw new BadControl(`at must be an RFC 3339 instant: ${String(b.at)}`);
      }
      stopFitbitSync(userId, at);
      const stopped = syncStoppedAt(userId);
      const { tz } = fitbitUserTimezone(userId);
      return {
        userId,
        stoppedAt: stopped === undefined ? null : new Date(stopped).toISOString(),
        lastSyncTime: fitbitLocal(fitbitTrackerLastSync(userId, clock.now()), tz),
      };
    }),
  );
}
