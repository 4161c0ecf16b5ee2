/*
 * The Fitbit data endpoints (providers.md §1.7): activity daily summary, time
 * series, intraday and the activity log list, heart (resting, intraday at
 * 1sec/1min/5min/15min), sleep v1.2 by date range and list, body weight and
 * fat logs and time series, SpO2, cardio score, HRV, breathing rate and food
 * logs and series, with the real paths, string values in time series, the
 * user's local times without offset (IANA zone with DST) and the maximum
 * ranges (400 beyond them). "today" is the user's local date.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimClock } from '../clock.js';
import type { AccessGrant } from '../oauth/oauth-store.js';
import { instantOfLocal, localDateAt, localIso, offsetMinutesAt, offsetText } from '../zone.js';
import { fitbitDay } from './fitbit-daily.js';
import { fitbitUserTimezone } from './fitbit-data.js';
import { fitbitIntradayDataset, type IntradayDetail, type IntradayResource } from './fitbit-intraday.js';

type Guard = (request: FastifyRequest, reply: FastifyReply, scope: string) => Promise<AccessGrant | null>;

const DAY = 86_400_000;
const PERIOD_DAYS: Record<string, number> = {
  '1d': 1,
  '7d': 7,
  '30d': 30,
  '1w': 7,
  '1m': 30,
  '3m': 91,
  '6m': 182,
  '1y': 365,
  max: 1095,
};
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

/** The day's logged (auto-detected) walk, on days with 20 or more very active minutes. */
export function fitbitActivityLog(userId: string, day: string) {
  const d = fitbitDay(userId, day);
  if (d.minutesVeryActive < 20) return null;
  const { tz } = fitbitUserTimezone(userId);
  const start = instantOfLocal(tz, `${day}T17:${String(d.minutesVeryActive % 60).padStart(2, '0')}`);
  const minutes = d.minutesVeryActive;
  const steps = Math.min(d.steps, minutes * 110);
  return {
    activityName: 'Walk',
    activityTypeId: 90013,
    activeDuration: minutes * 60_000,
    averageHeartRate: (d.restingHeartRate ?? 60) + 45,
    calories: minutes * 8,
    distance: Math.round(((steps * d.distanceKm) / Math.max(1, d.steps)) * 1000) / 1000,
    distanceUnit: 'Kilometer',
    duration: minutes * 60_000,
    logId: Number(`${day.replaceAll('-', '')}17${String(userId.charCodeAt(0)).padStart(3, '0')}`),
    logType: 'auto_detected',
    // Activity logs carry the local time WITH its offset (unlike the time series).
    startTime: `${localIso(tz, start)}${offsetText(offsetMinutesAt(tz, start))}`,
    originalStartTime: `${localIso(tz, start)}${offsetText(offsetMinutesAt(tz, start))}`,
    steps,
  };
}

const err = (errorType: string, message: string, fieldName = 'n/a') => ({
  errors: [{ errorType, fieldName, message }],
});

class RangeError400 extends Error {
  constructor(readonly body: object) {
    super('bad range');
  }
}

function parseDate(s: string, today: string, field: string): string {
  const d = s === 'today' ? today : s;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`))) {
    throw new RangeError400(err('validation', `Invalid date: ${s}`, field));
  }
  return d;
}

/** {start}/{end} or {date}/{period}: the list of days, checked against the resource's maximum. */
function daysOf(a: string, b: string, today: string, maxDays: number): string[] {
  const first = parseDate(a, today, 'date');
  let start: number;
  let end: number;
  if (PERIOD_DAYS[b] !== undefined) {
    end = Date.parse(`${first}T00:00:00Z`);
    start = end - (PERIOD_DAYS[b]! - 1) * DAY;
  } else {
    start = Date.parse(`${first}T00:00:00Z`);
    end = Date.parse(`${parseDate(b, today, 'endDate')}T00:00:00Z`);
  }
  if (end < start)
    throw new RangeError400(err('validation', 'Start date must be before end date', 'endDate'));
  const count = Math.round((end - start) / DAY) + 1;
  if (count > maxDays)
    throw new RangeError400(err('request', `The date range cannot exceed ${maxDays} days.`));
  return Array.from({ length: count }, (_, i) => new Date(start + i * DAY).toISOString().slice(0, 10));
}

export function registerFitbitDataRoutes(app: FastifyInstance, clock: SimClock, guard: Guard) {
  /** The user's local date now: 'today' in a path, and the end of list reads. */
  const today = (userId: string) => localDateAt(fitbitUserTimezone(userId).tz, clock.now().getTime());
  const handle =
    (scope: string, fn: (grant: AccessGrant, parts: string[], request: FastifyRequest) => unknown) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const grant = await guard(request, reply, scope);
      if (!grant) return reply;
      const rest = ((request.params as { '*': string })['*'] ?? '').replace(/\.json$/, '');
      try {
        return fn(grant, rest.split('/'), request);
      } catch (e) {
        if (e instanceof RangeError400) return reply.status(400).send(e.body);
        throw e;
      }
    };

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
        if (detail) {
          if (b !== '1d' || !['1sec', ...DETAILS].includes(detail))
            throw new RangeError400(err('request', 'Time range should not be bigger than 24 hours.'));
          const day = parseDate(a, today(grant.userId), 'date');
          const d = fitbitDay(grant.userId, day);
          return {
            'activities-heart': [
              {
                dateTime: day,
                value: {
                  customHeartRateZones: [],
                  heartRateZones: [],
                  ...(d.restingHeartRate === null ? {} : { restingHeartRate: d.restingHeartRate }),
                },
              },
            ],
            'activities-heart-intraday': fitbitIntradayDataset(
              grant.userId,
              day,
              'heart',
              detail as IntradayDetail,
              window,
            ),
          };
        }
        return {
          'activities-heart': daysOf(a, b, today(grant.userId), 365).map((day) => {
            const d = fitbitDay(grant.userId, day);
            return {
              dateTime: day,
              value: {
                customHeartRateZones: [],
                heartRateZones: [],
                ...(d.restingHeartRate === null ? {} : { restingHeartRate: d.restingHeartRate }),
              },
            };
          }),
        };
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

  // Sleep v1.2 by date or date range (max 100 days), and the paginated list.
  const sleepLogs = (userId: string, days: string[]) =>
    days.flatMap((day) => {
      const s = fitbitDay(userId, day).sleep;
      if (!s) return [];
      const inBed = s.minutesAsleep + s.wake;
      // The start is local wall-clock time; the end is the same elapsed time later in the user's zone
      // (the night clocks go forward, it shows one hour later on the clock).
      const { tz } = fitbitUserTimezone(userId);
      const end = localIso(tz, instantOfLocal(tz, s.start.slice(0, 19)) + inBed * 60_000);
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
            data: [],
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
      const days = b ? daysOf(a!, b, today(grant.userId), 100) : [parseDate(a!, today(grant.userId), 'date')];
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

  // Body: weight logs (max 31 days) and time series.
  app.get(
    '/1/user/-/body/*',
    handle('weight', (grant, parts) => {
      if (parts[0] === 'log' && parts[1] === 'fat' && parts[2] === 'date') {
        const days = parts[4]
          ? daysOf(parts[3]!, parts[4], today(grant.userId), 30)
          : [parseDate(parts[3]!, today(grant.userId), 'date')];
        return {
          fat: days.flatMap((day) => {
            const d = fitbitDay(grant.userId, day);
            return d.fatPct === null
              ? []
              : [
                  {
                    date: day,
                    fat: d.fatPct,
                    logId: Date.parse(`${day}T07:38:14Z`),
                    source: 'Aria',
                    time: '07:38:14',
                  },
                ];
          }),
        };
      }
      if (parts[0] === 'log' && parts[1] === 'weight' && parts[2] === 'date') {
        const days = parts[4]
          ? daysOf(parts[3]!, parts[4], today(grant.userId), 31)
          : [parseDate(parts[3]!, today(grant.userId), 'date')];
        return {
          weight: days.flatMap((day) => {
            const d = fitbitDay(grant.userId, day);
            return d.weightKg === null
              ? []
              : [
                  {
                    bmi: Math.round((d.weightKg / 1.72 ** 2) * 100) / 100,
                    date: day,
                    fat: d.fatPct,
                    logId: Date.parse(`${day}T07:38:14Z`),
                    source: 'Aria',
                    time: '07:38:14',
                    weight: d.weightKg,
                  },
                ];
          }),
        };
      }
      const [resource, dateWord, a, b] = parts;
      if (
        (resource !== 'weight' && resource !== 'fat' && resource !== 'bmi') ||
        dateWord !== 'date' ||
        !a ||
        !b
      ) {
        throw new RangeError400(
          err('validation', `Invalid time series resource path: /body/${parts.join('/')}`),
        );
      }
      const max = resource === 'bmi' ? 1095 : resource === 'fat' ? 30 : 31;
      return {
        [`body-${resource}`]: daysOf(a, b, today(grant.userId), max).map((day) => {
          const d = fitbitDay(grant.userId, day);
          const kg = d.weightKg ?? 0;
          const value =
            resource === 'weight'
              ? kg
              : resource === 'fat'
                ? (d.fatPct ?? 0)
                : Math.round((kg / 1.72 ** 2) * 100) / 100;
          return { dateTime: day, value: String(value) };
        }),
      };
    }),
  );

  // SpO2: one date → an object; a range → an array.
  app.get(
    '/1/user/-/spo2/date/*',
    handle('oxygen_saturation', (grant, parts) => {
      const entry = (day: string) => {
        const o = fitbitDay(grant.userId, day).spo2;
        return o ? { dateTime: day, value: o } : null;
      };
      if (!parts[1]) return entry(parseDate(parts[0]!, today(grant.userId), 'date')) ?? {};
      return daysOf(parts[0]!, parts[1], today(grant.userId), 1095).flatMap((day) => entry(day) ?? []);
    }),
  );

  // Cardio fitness score (max 30 days).
  app.get(
    '/1/user/-/cardioscore/date/*',
    handle('cardio_fitness', (grant, parts) => {
      const days = parts[1]
        ? daysOf(parts[0]!, parts[1], today(grant.userId), 30)
        : [parseDate(parts[0]!, today(grant.userId), 'date')];
      return {
        cardioScore: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).vo2Max;
          return v ? [{ dateTime: day, value: { vo2Max: v } }] : [];
        }),
      };
    }),
  );

  // Food log series (caloriesIn, water; max 1095 days) and the food log of a day.
  app.get(
    '/1/user/-/foods/log/*',
    handle('nutrition', (grant, parts) => {
      if (
        (parts[0] === 'caloriesIn' || parts[0] === 'water') &&
        parts[1] === 'date' &&
        parts[2] &&
        parts[3]
      ) {
        const key = parts[0];
        return {
          [`foods-log-${key}`]: daysOf(parts[2], parts[3], today(grant.userId), 1095).map((day) => {
            const d = fitbitDay(grant.userId, day);
            return { dateTime: day, value: String(key === 'water' ? d.waterMl : d.caloriesIn) };
          }),
        };
      }
      if (parts[0] !== 'date' || !parts[1] || parts[2])
        throw new RangeError400(err('validation', `Invalid food log resource path: /${parts.join('/')}`));
      const day = parseDate(parts[1], today(grant.userId), 'date');
      const d = fitbitDay(grant.userId, day);
      const foods = d.caloriesIn
        ? [
            {
              isFavorite: false,
              logDate: day,
              logId: Date.parse(`${day}T08:00:00Z`),
              loggedFood: {
                amount: 1,
                calories: d.caloriesIn,
                mealTypeId: 7,
                name: 'Daily meals',
                unit: { id: 304, name: 'serving', plural: 'servings' },
              },
              nutritionalValues: { calories: d.caloriesIn },
            },
          ]
        : [];
      return { foods, goals: { calories: 2100 }, summary: { calories: d.caloriesIn, water: d.waterMl } };
    }),
  );

  // HRV and breathing rate of the main sleep (max 30 days; providers.md §1.7.10).
  app.get(
    '/1/user/-/hrv/date/*',
    handle('heartrate', (grant, parts) => {
      const days = parts[1]
        ? daysOf(parts[0]!, parts[1], today(grant.userId), 30)
        : [parseDate(parts[0]!, today(grant.userId), 'date')];
      return {
        hrv: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).hrv;
          return v ? [{ dateTime: day, value: v }] : [];
        }),
      };
    }),
  );
  app.get(
    '/1/user/-/br/date/*',
    handle('respiratory_rate', (grant, parts) => {
      const days = parts[1]
        ? daysOf(parts[0]!, parts[1], today(grant.userId), 30)
        : [parseDate(parts[0]!, today(grant.userId), 'date')];
      return {
        br: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).breathingRate;
          return v === null ? [] : [{ dateTime: day, value: { breathingRate: v } }];
        }),
      };
    }),
  );
  // Nightly skin temperature relative to the baseline, °C (scope temperature; max 30 days).
  app.get(
    '/1/user/-/temp/skin/date/*',
    handle('temperature', (grant, parts) => {
      const days = parts[1]
        ? daysOf(parts[0]!, parts[1], today(grant.userId), 30)
        : [parseDate(parts[0]!, today(grant.userId), 'date')];
      return {
        tempSkin: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).skinTempRelative;
          return v === null
            ? []
            : [{ dateTime: day, value: { nightlyRelative: v }, logType: 'dedicated_temp_sensor' }];
        }),
      };
    }),
  );
}

const LIST_RULE = 'Exactly one of beforeDate or afterDate, a limit of 1 to 100 and offset 0 are required';

/**
 * One page of a list endpoint (providers.md §1.7.6, §1.8): exactly one of
 * beforeDate/afterDate, limit 1–100, offset 0 only; the days (up to the
 * user's today) that have an entry, in the sort asked, and Fitbit's
 * pagination block. Null when the query breaks the rule.
 */
function listPage(
  q: Record<string, string | undefined>,
  today: string,
  maxLimit: number,
  has: (day: string) => boolean,
) {
  const limit = Number(q.limit ?? 10);
  if (
    (q.beforeDate ? 1 : 0) + (q.afterDate ? 1 : 0) !== 1 ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > maxLimit ||
    (q.offset ?? '0') !== '0'
  )
    return null;
  const anchor = Date.parse(`${(q.beforeDate ?? q.afterDate)!.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(anchor)) return null;
  const sort = q.sort ?? (q.beforeDate ? 'desc' : 'asc');
  const days: string[] = [];
  const end = Date.parse(`${today}T00:00:00Z`);
  for (let i = 0; days.length < limit && i < 400; i++) {
    const t = q.beforeDate ? anchor - (i + 1) * DAY : anchor + i * DAY;
    if (t > end) break;
    const day = new Date(t).toISOString().slice(0, 10);
    if (has(day)) days.push(day);
  }
  const ordered = sort === 'desc' ? [...days].sort().reverse() : [...days].sort();
  return {
    days: ordered,
    pagination: {
      ...(q.beforeDate ? { beforeDate: q.beforeDate } : { afterDate: q.afterDate }),
      limit,
      next: '',
      offset: 0,
      previous: '',
      sort,
    },
  };
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
