/*
 * What the Fitbit data route modules share: the guard, the handler wrapper
 * that answers a bad range with Fitbit's 400 body, the user's today, and
 * the date and range rules of the paths ({start}/{end} or {date}/{period},
 * each resource's maximum) and of the paginated lists.
 */

import { localDate } from '@trialwear/zone';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SimClock } from '../../clock.js';
import type { AccessGrant } from '../../oauth/oauth-store.js';
import { fitbitUserTimezone } from '../fitbit-data.js';

export type Guard = (
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
) => Promise<AccessGrant | null>;

const DAY = 86_400_000;
/** Fitbit's periods of `{date}/{period}` paths: days, or whole calendar months back from `{date}`. */
const PERIODS: Record<string, { days: number } | { months: number }> = {
  '1d': { days: 1 },
  '7d': { days: 7 },
  '30d': { days: 30 },
  '1w': { days: 7 },
  '1m': { months: 1 },
  '3m': { months: 3 },
  '6m': { months: 6 },
  '1y': { months: 12 },
  // Everything Fitbit has; the generator has every day, so bounded here (as the portal's contract) to three years.
  max: { days: 1095 },
};
export const isPeriod = (s: string | undefined) => s !== undefined && Object.hasOwn(PERIODS, s);

/** The first day a period ending at `date` covers (a month back: the day after the same day a month earlier). */
function periodStart(date: string, period: string): number {
  const end = Date.parse(`${date}T00:00:00Z`);
  const p = PERIODS[period]!;
  if ('days' in p) return end - (p.days - 1) * DAY;
  const d = new Date(end);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - p.months);
  d.setUTCDate(Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
  return d.getTime() + DAY;
}

export const err = (errorType: string, message: string, fieldName = 'n/a') => ({
  errors: [{ errorType, fieldName, message }],
});

export class RangeError400 extends Error {
  constructor(readonly body: object) {
    super('bad range');
  }
}

export function parseDate(s: string, today: string, field: string): string {
  const d = s === 'today' ? today : s;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`))) {
    throw new RangeError400(err('validation', `Invalid date: ${s}`, field));
  }
  return d;
}

/**
 * {start}/{end} or {date}/{period}: the list of days, checked against the
 * resource's maximum (`periodMaxDays` for the period form, where Fitbit's
 * limit differs: the body series take any documented period).
 */
export function daysOf(
  a: string,
  b: string,
  today: string,
  maxDays: number,
  periodMaxDays = maxDays,
): string[] {
  const first = parseDate(a, today, 'date');
  let start: number;
  let end: number;
  if (isPeriod(b)) {
    end = Date.parse(`${first}T00:00:00Z`);
    start = periodStart(first, b);
    maxDays = periodMaxDays;
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

/** `{date}` or `{start}/{end}` (or `{date}/{period}`): the days a path names. */
export const dayOrDays = (a: string, b: string | undefined, today: string, maxDays: number): string[] =>
  b ? daysOf(a, b, today, maxDays) : [parseDate(a, today, 'date')];

export const LIST_RULE =
  'Exactly one of beforeDate or afterDate, a limit of 1 to 100 and offset 0 are required';

/**
 * One page of a list endpoint (providers.md §1.7.6, §1.8): exactly one of
 * beforeDate/afterDate, limit 1–100, offset 0 only; the days (up to the
 * user's today) that have an entry, in the sort asked, and Fitbit's
 * pagination block. Null when the query breaks the rule.
 */
export function listPage(
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

export type FitbitRouteKit = ReturnType<typeof fitbitRouteKit>;

export function fitbitRouteKit(clock: SimClock, guard: Guard) {
  /** The user's local date now: 'today' in a path, and the end of list reads. */
  const today = (userId: string) => localDate(fitbitUserTimezone(userId).tz, clock.now().getTime());
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

  return { guard, today, handle };
}
