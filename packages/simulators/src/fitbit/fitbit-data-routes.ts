/*
 * The Fitbit data endpoints (providers.md §1.7): activity time series and
 * intraday, heart (resting and intraday), sleep v1.2 by date range, body
 * weight logs and time series, SpO2, cardio score and food logs, with the
 * real paths, string values in time series, local times without offset and
 * the maximum ranges (400 beyond them).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimClock } from '../clock.js';
import type { AccessGrant } from '../oauth/oauth-store.js';
import { fitbitDay, fitbitIntradayHeart, fitbitIntradaySteps } from './fitbit-daily.js';

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
  'calories',
  'minutesSedentary',
  'minutesLightlyActive',
  'minutesFairlyActive',
  'minutesVeryActive',
] as const;

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

const hhmmss = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;

export function registerFitbitDataRoutes(app: FastifyInstance, clock: SimClock, guard: Guard) {
  const today = () => clock.now().toISOString().slice(0, 10);
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

  // Activities: /1/user/-/activities[/tracker]/{resource}/date/{a}/{b}[/{detail}] and heart.
  app.get('/1/user/-/activities/*', async (request, reply) => {
    const rest = ((request.params as { '*': string })['*'] ?? '').replace(/\.json$/, '');
    const scope = rest.startsWith('heart/') ? 'heartrate' : 'activity';
    return handle(scope, (grant, parts) => {
      const tracker = parts[0] === 'tracker';
      const p = tracker ? parts.slice(1) : parts;
      const [resource, dateWord, a, b, detail] = p;
      if (dateWord !== 'date' || !a || !b)
        throw new RangeError400(err('validation', `Invalid time series resource path: /${rest}`));
      if (resource === 'heart') {
        if (detail) {
          const day = parseDate(a, today(), 'date');
          const hr = fitbitIntradayHeart(grant.userId, day);
          const d = fitbitDay(grant.userId, day);
          return {
            'activities-heart': [
              {
                dateTime: day,
                value: {
                  customHeartRateZones: [],
                  heartRateZones: [],
                  restingHeartRate: d.restingHeartRate ?? undefined,
                },
              },
            ],
            'activities-heart-intraday': {
              dataset: hr.flatMap((v, m) => (v === null ? [] : [{ time: hhmmss(m), value: v }])),
              datasetInterval: 1,
              datasetType: 'minute',
            },
          };
        }
        return {
          'activities-heart': daysOf(a, b, today(), 365).map((day) => {
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
      if (!ACTIVITY_RESOURCES.includes(resource as (typeof ACTIVITY_RESOURCES)[number])) {
        throw new RangeError400(err('validation', `Invalid time series resource path: /${resource}`));
      }
      const key = `activities-${tracker ? 'tracker-' : ''}${resource}`;
      if (detail) {
        // Intraday: one day at most (providers.md §1.7.3).
        if (b !== '1d')
          throw new RangeError400(err('request', 'Time range should not be bigger than 24 hours.'));
        const day = parseDate(a, today(), 'date');
        const steps = fitbitIntradaySteps(grant.userId, day);
        const stride =
          fitbitDay(grant.userId, day).distanceKm / Math.max(1, fitbitDay(grant.userId, day).steps);
        const value = (s: number) =>
          resource === 'distance' ? Math.round(s * stride * 1000) / 1000 : resource === 'steps' ? s : 0;
        return {
          [key]: [{ dateTime: day, value: String(fitbitDay(grant.userId, day).steps) }],
          [`${key}-intraday`]: {
            dataset: steps.map((s, m) => ({ time: hhmmss(m), value: value(s) })),
            datasetInterval: 1,
            datasetType: 'minute',
          },
        };
      }
      return {
        [key]: daysOf(a, b, today(), 1095).map((day) => {
          const d = fitbitDay(grant.userId, day);
          const v: Record<(typeof ACTIVITY_RESOURCES)[number], number> = {
            steps: d.steps,
            distance: d.distanceKm,
            floors: d.floors,
            calories: d.calories,
            minutesSedentary: d.minutesSedentary,
            minutesLightlyActive: d.minutesLightlyActive,
            minutesFairlyActive: d.minutesFairlyActive,
            minutesVeryActive: d.minutesVeryActive,
          };
          return { dateTime: day, value: String(v[resource as (typeof ACTIVITY_RESOURCES)[number]]) };
        }),
      };
    })(request, reply);
  });

  // Sleep v1.2 by date or date range (max 100 days), and the paginated list.
  const sleepLogs = (userId: string, days: string[]) =>
    days.flatMap((day) => {
      const s = fitbitDay(userId, day).sleep;
      if (!s) return [];
      const inBed = s.minutesAsleep + s.wake;
      const end = new Date(Date.parse(`${s.start}Z`) + inBed * 60_000).toISOString().replace('Z', '');
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
    const limit = Number(q.limit ?? 10);
    if (
      (q.beforeDate ? 1 : 0) + (q.afterDate ? 1 : 0) !== 1 ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > 100 ||
      (q.offset ?? '0') !== '0'
    ) {
      return reply
        .status(400)
        .send(
          err(
            'validation',
            'Exactly one of beforeDate or afterDate, a limit of 1 to 100 and offset 0 are required',
          ),
        );
    }
    const sort = q.sort ?? (q.beforeDate ? 'desc' : 'asc');
    const anchor = Date.parse(`${(q.beforeDate ?? q.afterDate)!.slice(0, 10)}T00:00:00Z`);
    if (Number.isNaN(anchor))
      return reply
        .status(400)
        .send(err('validation', 'Invalid date', q.beforeDate ? 'beforeDate' : 'afterDate'));
    const days: string[] = [];
    const end = Date.parse(`${today()}T00:00:00Z`);
    for (let i = 0; days.length < limit && i < 400; i++) {
      const t = q.beforeDate ? anchor - (i + 1) * DAY : anchor + i * DAY;
      if (t > end) break;
      const day = new Date(t).toISOString().slice(0, 10);
      if (fitbitDay(grant.userId, day).sleep) days.push(day);
    }
    const sleep = sleepLogs(grant.userId, sort === 'desc' ? days : [...days].sort());
    return {
      sleep,
      pagination: {
        ...(q.beforeDate ? { beforeDate: q.beforeDate } : { afterDate: q.afterDate }),
        limit,
        next: '',
        offset: 0,
        previous: '',
        sort,
      },
    };
  });

  app.get(
    '/1.2/user/-/sleep/date/*',
    handle('sleep', (grant, parts) => {
      const [a, b] = parts;
      const days = b ? daysOf(a!, b, today(), 100) : [parseDate(a!, today(), 'date')];
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
      if (parts[0] === 'log' && parts[1] === 'weight' && parts[2] === 'date') {
        const days = parts[4]
          ? daysOf(parts[3]!, parts[4], today(), 31)
          : [parseDate(parts[3]!, today(), 'date')];
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
        [`body-${resource}`]: daysOf(a, b, today(), max).map((day) => {
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
      if (!parts[1]) return entry(parseDate(parts[0]!, today(), 'date')) ?? {};
      return daysOf(parts[0]!, parts[1], today(), 1095).flatMap((day) => entry(day) ?? []);
    }),
  );

  // Cardio fitness score (max 30 days).
  app.get(
    '/1/user/-/cardioscore/date/*',
    handle('cardio_fitness', (grant, parts) => {
      const days = parts[1]
        ? daysOf(parts[0]!, parts[1], today(), 30)
        : [parseDate(parts[0]!, today(), 'date')];
      return {
        cardioScore: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).vo2Max;
          return v ? [{ dateTime: day, value: { vo2Max: v } }] : [];
        }),
      };
    }),
  );

  // Food log of a day.
  app.get(
    '/1/user/-/foods/log/date/*',
    handle('nutrition', (grant, parts) => {
      const day = parseDate(parts[0]!, today(), 'date');
      const calories = fitbitDay(grant.userId, day).worn ? 1600 + (grant.userId.charCodeAt(1) % 9) * 100 : 0;
      const foods = calories
        ? [
            {
              isFavorite: false,
              logDate: day,
              logId: Date.parse(`${day}T08:00:00Z`),
              loggedFood: {
                amount: 1,
                calories,
                mealTypeId: 7,
                name: 'Daily meals',
                unit: { id: 304, name: 'serving', plural: 'servings' },
              },
              nutritionalValues: { calories },
            },
          ]
        : [];
      return { foods, goals: { calories: 2100 }, summary: { calories, water: 1500 } };
    }),
  );
}
