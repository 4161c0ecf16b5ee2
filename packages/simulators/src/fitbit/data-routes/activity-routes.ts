/*
 * The activity resources (providers.md §1.7.1–§1.7.3): a day's summary,
 * the time series of each activity resource (string values, the
 * resource's maximum range), intraday at 1min/5min/15min (one day at
 * most), the paginated activity log list; and, under the same path, heart
 * rate (heart-answers.ts).
 */
import type { FastifyInstance } from 'fastify';
import { fitbitActivityLog } from '../fitbit-activity-log.js';
import { fitbitDay } from '../fitbit-daily.js';
import { fitbitIntradayDataset, type IntradayDetail, type IntradayResource } from '../fitbit-intraday.js';
import { HEART_DETAILS, heartIntraday, heartSeries } from './heart-answers.js';
import {
  daysOf,
  err,
  type FitbitRouteKit,
  LIST_RULE,
  listPage,
  parseDate,
  RangeError400,
} from './route-kit.js';

const ACTIVITY_RESOURCES = [
  'steps',
  'distance',
  'floors',
  'elevation',
  'calories',
  'caloriesBMR',
  'activityCalories',
  'minutesSedentary',
  'minutesLightlyActive',
  'minutesFairlyActive',
  'minutesVeryActive',
] as const;
type ActivityResource = (typeof ACTIVITY_RESOURCES)[number];
const INTRADAY = ['steps', 'distance', 'floors', 'elevation', 'calories'];
const DETAILS = ['1min', '5min', '15min'];

/** A day's value of an activity resource, as the time series sends it (a string). */
function activityValue(userId: string, day: string, resource: ActivityResource): string {
  const d = fitbitDay(userId, day);
  const v: Record<ActivityResource, number> = {
    steps: d.steps,
    distance: d.distanceKm,
    floors: d.floors,
    elevation: Math.round(d.floors * 3.048 * 100) / 100,
    calories: d.calories,
    caloriesBMR: d.caloriesBMR,
    activityCalories: d.calories - d.caloriesBMR,
    minutesSedentary: d.minutesSedentary,
    minutesLightlyActive: d.minutesLightlyActive,
    minutesFairlyActive: d.minutesFairlyActive,
    minutesVeryActive: d.minutesVeryActive,
  };
  return String(v[resource]);
}

export function registerActivityRoutes(app: FastifyInstance, { guard, today, handle }: FitbitRouteKit) {
  // Activity log list (paginated like the sleep list: one of beforeDate/afterDate, limit ≤ 100, offset 0).
  app.get('/1/user/-/activities/list.json', async (request, reply) => {
    const grant = await guard(request, reply, 'activity');
    if (!grant) return reply;
    const q = request.query as Record<string, string | undefined>;
    const page = listPage(
      q,
      today(grant.userId),
      100,
      (day) => fitbitActivityLog(grant.userId, day) !== null,
    );
    if (!page) return reply.status(400).send(err('validation', LIST_RULE));
    return {
      activities: page.days.map((day) => fitbitActivityLog(grant.userId, day)!),
      pagination: page.pagination,
    };
  });

  // Activities: /1/user/-/activities/date/{date}, [/tracker]/{resource}/date/{a}/{b}[/{detail}[/time/{from}/{to}]] and heart.
  app.get('/1/user/-/activities/*', async (request, reply) => {
    const rest = ((request.params as { '*': string })['*'] ?? '').replace(/\.json$/, '');
    const scope = rest.startsWith('heart/') ? 'heartrate' : 'activity';
    return handle(scope, (grant, parts) => {
      if (parts[0] === 'date' && parts.length === 2)
        return activitySummary(grant.userId, parseDate(parts[1]!, today(grant.userId), 'date'));
      const tracker = parts[0] === 'tracker';
      const p = tracker ? parts.slice(1) : parts;
      const [resource, dateWord, a, b, detail, timeWord, from, to] = p;
      if (dateWord !== 'date' || !a || !b)
        throw new RangeError400(err('validation', `Invalid time series resource path: /${rest}`));
      const window =
        timeWord === 'time' && from && to && /^\d{2}:\d{2}$/.test(from) && /^\d{2}:\d{2}$/.test(to)
          ? ([from, to] as [string, string])
          : undefined;
      if (resource === 'heart') {
        if (!detail) return heartSeries(grant.userId, daysOf(a, b, today(grant.userId), 365));
        if (b !== '1d' || !HEART_DETAILS.includes(detail))
          throw new RangeError400(err('request', 'Time range should not be bigger than 24 hours.'));
        const day = parseDate(a, today(grant.userId), 'date');
        return heartIntraday(grant.userId, day, detail as IntradayDetail, window);
      }
      if (!ACTIVITY_RESOURCES.includes(resource as ActivityResource)) {
        throw new RangeError400(err('validation', `Invalid time series resource path: /${resource}`));
      }
      const key = `activities-${tracker ? 'tracker-' : ''}${resource}`;
      if (detail) {
        // Intraday: one day at most (providers.md §1.7.3).
        if (b !== '1d')
          throw new RangeError400(err('request', 'Time range should not be bigger than 24 hours.'));
        if (!INTRADAY.includes(resource!) || !DETAILS.includes(detail))
          throw new RangeError400(err('validation', `Invalid intraday resource path: /${rest}`));
        const day = parseDate(a, today(grant.userId), 'date');
        return {
          [key]: [{ dateTime: day, value: activityValue(grant.userId, day, resource as ActivityResource) }],
          [`${key}-intraday`]: fitbitIntradayDataset(
            grant.userId,
            day,
            resource as IntradayResource,
            detail as IntradayDetail,
            window,
          ),
        };
      }
      const max = resource === 'activityCalories' ? 30 : 1095;
      return {
        [key]: daysOf(a, b, today(grant.userId), max).map((day) => ({
          dateTime: day,
          value: activityValue(grant.userId, day, resource as ActivityResource),
        })),
      };
    })(request, reply);
  });
}

/** GET /1/user/-/activities/date/{date}.json (providers.md §1.7.1). */
function activitySummary(userId: string, day: string) {
  const d = fitbitDay(userId, day);
  const log = fitbitActivityLog(userId, day);
  return {
    activities: log
      ? [
          {
            activityId: 90013,
            activityParentId: 90013,
            activityParentName: 'Walk',
            name: 'Walk',
            calories: log.calories,
            distance: log.distance,
            duration: log.duration,
            steps: log.steps,
            hasStartTime: true,
            startDate: day,
            startTime: log.startTime.slice(11, 16),
            isFavorite: false,
            logId: log.logId,
            description: '',
          },
        ]
      : [],
    goals: { activeMinutes: 30, caloriesOut: 2500, distance: 8.05, floors: 10, steps: 10000 },
    summary: {
      activityCalories: d.calories - d.caloriesBMR,
      caloriesBMR: d.caloriesBMR,
      caloriesOut: d.calories,
      steps: d.steps,
      floors: d.floors,
      elevation: Math.round(d.floors * 3.048 * 100) / 100,
      sedentaryMinutes: d.minutesSedentary,
      lightlyActiveMinutes: d.minutesLightlyActive,
      fairlyActiveMinutes: d.minutesFairlyActive,
      veryActiveMinutes: d.minutesVeryActive,
      distances: [
        { activity: 'total', distance: d.distanceKm },
        { activity: 'tracker', distance: d.distanceKm },
      ],
      ...(d.restingHeartRate === null ? {} : { restingHeartRate: d.restingHeartRate }),
    },
  };
}
