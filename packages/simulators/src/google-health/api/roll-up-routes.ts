/*
 * The roll-ups of a type: :rollUp over physical windows (a duration type's
 * interval counts for the share of it inside a window) and :dailyRollUp
 * over civil days (a point counts for the day of its own civil time; the
 * daily types answer their personal range instead).
 */

import { addDays } from '@trialwear/zone';
import type { FastifyInstance } from 'fastify';
import { payloadKeyOf } from '../data-types/catalogue.js';
import { pointsOfDate } from '../data-types/points-of-date.js';
import type { DataTypeSpec, Pt, Share } from '../data-types/spec.js';
import { dateOfG, gDate, omitDefaults, parseDuration, timestamp } from '../gh-json.js';
import type { Person } from '../person.js';
import { bindingOf, decodeToken, encodeToken, pageSizeOf } from './page-tokens.js';
import { merged } from './render-point.js';
import { bad, checkFamily, DAY, type RouteKit } from './route-kit.js';

export function registerRollUpRoutes(
  app: FastifyInstance,
  { config, today, wrap, specOf, areaOf }: RouteKit,
) {
  /** Points of a type between two local dates (inclusive), merged sources, oldest first. */
  function pointsBetween(spec: DataTypeSpec, person: Person, from: string, to: string): Pt[] {
    const cfg = config();
    const out: Pt[] = [];
    const last = [to, today(person)].sort()[0]!;
    for (let d = from; d <= last; d = addDays(d, 1))
      for (const p of pointsOfDate(spec, person, d, cfg)) if (merged(p)) out.push(p);
    return out.sort((a, b) => a.t - b.t);
  }

  const maxDaysOf = (spec: DataTypeSpec, daily: boolean) =>
    daily && config().dailyRollUpMaxDays === 14 ? 14 : spec.maxRollUpDays;

  app.post(
    '/v4/users/:user/dataTypes/:dataType/dataPoints::rollUp',
    wrap('DataPointsService.RollUpDataPoints', areaOf, (person, request) => {
      const spec = specOf(request, 'rollUp');
      const b = (request.body ?? {}) as Record<string, unknown>;
      const range = (b.range ?? {}) as Record<string, unknown>;
      // google.protobuf.Timestamp in JSON: RFC 3339 with Z or an offset.
      const instant = (v: unknown) =>
        typeof v === 'string' &&
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(v)
          ? Date.parse(v)
          : Number.NaN;
      const start = instant(range.startTime);
      const end = instant(range.endTime);
      if (Number.isNaN(start) || Number.isNaN(end))
        throw bad('range.startTime and range.endTime are required RFC 3339 timestamps.');
      if (end <= start) throw bad('range.endTime must be after range.startTime.');
      const window = parseDuration(b.windowSize);
      if (window === null || window < 1)
        throw bad('windowSize must be a duration of at least 1s, e.g. "60s".');
      const maxDays = maxDaysOf(spec, false);
      if (end - start > maxDays * DAY)
        throw bad(`The range of a rollUp of ${spec.id} cannot exceed ${maxDays} days.`);
      checkFamily(b.dataSourceFamily);
      const size = pageSizeOf(b.pageSize, 1440, 10_000);
      const w = window * 1000;
      const count = Math.ceil((end - start) / w);
      const binding = bindingOf(
        'rollUp',
        spec.id,
        person.healthUserId,
        start,
        end,
        w,
        b.dataSourceFamily ?? '',
      );
      const first =
        typeof b.pageToken === 'string' && b.pageToken
          ? decodeToken<{ i: number }>(b.pageToken, binding).i
          : 0;
      const lastWindow = Math.min(count, first + size);
      const from = new Date(start + first * w - DAY).toISOString().slice(0, 10);
      const to = new Date(start + lastWindow * w + DAY).toISOString().slice(0, 10);
      const pts = pointsBetween(spec, person, from, to);
      const rollupDataPoints = [];
      let k = 0;
      for (let i = first; i < lastWindow; i++) {
        const ws = start + i * w;
        const we = Math.min(end, ws + w);
        const items: Share[] = [];
        if (spec.durationValued) {
          for (const pt of pts) {
            const overlap = Math.min(we, pt.end!) - Math.max(ws, pt.t);
            if (overlap > 0) items.push({ pt, share: overlap / (pt.end! - pt.t) });
          }
        } else {
          while (k < pts.length && pts[k]!.t < ws) k++;
          for (let j = k; j < pts.length && pts[j]!.t < we; j++) items.push({ pt: pts[j]!, share: 1 });
        }
        const value = spec.aggregate?.(items);
        rollupDataPoints.push({
          startTime: timestamp(ws),
          endTime: timestamp(we),
          ...(value && { [payloadKeyOf(spec.id)]: omitDefaults(value) }),
        });
      }
      return {
        rollupDataPoints,
        ...(lastWindow < count && { nextPageToken: encodeToken(binding, { i: lastWindow }) }),
      };
    }),
  );

  app.post(
    '/v4/users/:user/dataTypes/:dataType/dataPoints::dailyRollUp',
    wrap('DataPointsService.DailyRollUpDataPoints', areaOf, (person, request) => {
      const spec = specOf(request, 'dailyRollUp');
      const b = (request.body ?? {}) as Record<string, unknown>;
      const cfg = config();
      if (b.pageSize !== undefined && !cfg.dailyRollUpAcceptsPageSize)
        throw bad('Invalid argument in request');
      const range = (b.range ?? {}) as Record<string, unknown>;
      const bound = (name: 'start' | 'end') => {
        const v = range[name];
        if (!v || typeof v !== 'object') throw bad(`range.${name} is required.`);
        const o = v as Record<string, unknown>;
        for (const k of Object.keys(o))
          if (k !== 'date' && k !== 'time')
            throw bad(
              `Invalid JSON payload received. Unknown name "${k}" at 'range.${name}': Cannot find field.`,
            );
        const time = (o.time ?? {}) as Record<string, unknown>;
        if (Object.values(time).some((x) => x !== 0))
          throw bad(`range.${name} must be aligned with the window: a date at midnight.`);
        const date = dateOfG(o.date);
        if (!date) throw bad(`range.${name}.date is not a valid date.`);
        return date;
      };
      const start = bound('start');
      const end = bound('end');
      const windowDays = b.windowSizeDays === undefined ? 1 : Number(b.windowSizeDays);
      if (!Number.isInteger(windowDays) || windowDays < 1)
        throw bad('windowSizeDays must be a positive integer.');
      const days = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY);
      if (days < 1) throw bad('range.end must be after range.start.');
      const maxDays = maxDaysOf(spec, true);
      if (days > maxDays)
        throw bad(`The range of a dailyRollUp of ${spec.id} cannot exceed ${maxDays} days.`);
      checkFamily(b.dataSourceFamily);
      const pts = spec.personalRange ? [] : pointsBetween(spec, person, start, addDays(end, -1));
      const rollupDataPoints = [];
      for (let ws = start; ws < end; ws = addDays(ws, windowDays)) {
        const we = [addDays(ws, windowDays), end].sort()[0]!;
        // Civil windows: a point counts for the day of its own civil time (its own offset).
        const value = spec.personalRange
          ? ws <= today(person)
            ? spec.personalRange(person, we)
            : undefined
          : spec.aggregate?.(pts.filter((p) => p.date >= ws && p.date < we).map((pt) => ({ pt, share: 1 })));
        rollupDataPoints.push({
          civilStartTime: { date: gDate(ws) },
          civilEndTime: { date: gDate(we) },
          ...(value && { [payloadKeyOf(spec.id)]: omitDefaults(value) }),
        });
      }
      return { rollupDataPoints };
    }),
  );
}
