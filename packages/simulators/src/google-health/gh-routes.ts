/*
 * The Google Health API v4 REST surface the portal needs
 * (google-health-api.md §3): users/{user}/identity, profile, settings,
 * pairedDevices (list, get); dataTypes/{type}/dataPoints list (AIP-160
 * filter, newest first, opaque page tokens, a bounded scan that can answer
 * an empty page with a token), :reconcile (dataSourceFamily, no
 * dataSource), :rollUp (physical windows), :dailyRollUp (civil days), get
 * for identifiable types (sleep). Every answer in proto3 JSON; every
 * refusal in Google's error envelope.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimClock } from '../clock.js';
import { fitbitDevices, lastSync } from '../fitbit/fitbit-data.js';
import { localDateAt } from '../zone.js';
import { DATA_TYPES, payloadKeyOf } from './data-types/catalogue.js';
import { dataSource } from './data-types/data-sources.js';
import { ageOf } from './data-types/heart-day.js';
import { addDays, MEMBER_SINCE } from './data-types/legacy-day.js';
import { pointsOfDate } from './data-types/points-of-date.js';
import { sleepSession } from './data-types/sleep-day.js';
import type { DataTypeSpec, Pt, ScopeArea, Share } from './data-types/spec.js';
import { dateBounds, matches, parseFilter } from './filter.js';
import type { GoogleHealthConfig } from './gh-config.js';
import {
  dateOfG,
  GoogleApiError,
  gDate,
  interval,
  omitDefaults,
  parseDuration,
  sampleTime,
  timestamp,
  utcOffset,
} from './gh-json.js';
import { type Person, zoneAt } from './person.js';

/** The authenticated caller of a data call, or null when the guard already answered. */
export type GhGuard = (
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  scope: ScopeArea | 'any',
) => Promise<Person | null>;

const DAY = 86_400_000;
const FAMILIES = [
  'users/me/dataSourceFamilies/all-sources',
  'users/me/dataSourceFamilies/google-wearables',
  'users/me/dataSourceFamilies/google-sources',
];

const bad = (message: string, reason?: string) => new GoogleApiError(400, message, reason);

// ------------------------------------------------------------ page tokens

/** Opaque page tokens bound to the request they continue (other parameters must not change). */
function encodeToken(binding: string, position: object) {
  return Buffer.from(JSON.stringify({ b: binding, ...position })).toString('base64url');
}
function decodeToken<T>(token: string, binding: string): T {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { b?: string } & T;
    if (v.b === binding) return v;
  } catch {
    // fall through
  }
  throw bad('Invalid page token: it does not belong to this request, or other parameters changed.');
}
const bindingOf = (...parts: unknown[]) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);

function pageSizeOf(raw: unknown, dflt: number, max: number): number {
  if (raw === undefined || raw === '' || raw === null) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw bad(`Invalid value for pageSize: ${String(raw)}`);
  return n === 0 ? dflt : Math.min(n, max);
}

// ------------------------------------------------------------ rendering

/** What rendering depends on besides the point: the simulated now and the configuration. */
interface RenderCtx {
  now: number;
  config: GoogleHealthConfig;
}

function payloadOf(spec: DataTypeSpec, person: Person, p: Pt, ctx: RenderCtx) {
  if (spec.id === 'sleep') {
    const s = sleepSession(person, p.date)!;
    // Stages are computed after waking (§3.10): until then processed:false, no stages yet.
    const processedAt = s.end + ctx.config.sleepProcessingMinutes * 60_000;
    const processing = ctx.now < processedAt;
    const stamp = timestamp(processing ? s.end + 60_000 : Math.max(processedAt, s.end + 15 * 60_000));
    const count = (type: string) => String(s.stages.filter((x) => x.type === type).length);
    return omitDefaults({
      interval: interval(s.tz, s.start, s.end),
      type: 'STAGES',
      stages: (processing ? [] : s.stages).map((x) => ({
        startTime: timestamp(x.start),
        startUtcOffset: utcOffset(s.tz, x.start),
        endTime: timestamp(x.end),
        endUtcOffset: utcOffset(s.tz, x.end),
        type: x.type,
        createTime: stamp,
        updateTime: stamp,
      })),
      metadata: {
        stagesStatus: processing ? '' : 'SUCCEEDED',
        processed: !processing,
        nap: false,
        manuallyEdited: false,
        mainSleep: true,
      },
      summary: {
        minutesInSleepPeriod: String(s.minutes.inBed),
        minutesAfterWakeUp: '0',
        minutesToFallAsleep: '0',
        minutesAsleep: String(s.minutes.asleep),
        minutesAwake: String(s.minutes.awake),
        stagesSummary: processing
          ? []
          : [
              { type: 'DEEP', minutes: String(s.minutes.deep), count: count('DEEP') },
              { type: 'LIGHT', minutes: String(s.minutes.light), count: count('LIGHT') },
              { type: 'REM', minutes: String(s.minutes.rem), count: count('REM') },
              { type: 'AWAKE', minutes: String(s.minutes.awake), count: count('AWAKE') },
            ],
      },
      createTime: stamp,
      updateTime: stamp,
    });
  }
  const time =
    spec.record === 'daily'
      ? { date: gDate(p.date) }
      : spec.record === 'sample'
        ? { sampleTime: sampleTime(p.tz, p.t) }
        : { interval: interval(p.tz, p.t, p.end!) };
  return omitDefaults({ ...time, ...p.fields });
}

const nameOf = (spec: DataTypeSpec, person: Person, p: Pt) =>
  `users/${person.healthUserId}/dataTypes/${spec.id}/dataPoints/${p.id}`;

function renderListed(spec: DataTypeSpec, person: Person, p: Pt, ctx: RenderCtx) {
  return {
    ...(spec.identifiable && { name: nameOf(spec, person, p) }),
    dataSource: dataSource(person.dataUserId, p.source),
    [payloadKeyOf(spec.id)]: payloadOf(spec, person, p, ctx),
  };
}
function renderReconciled(spec: DataTypeSpec, person: Person, p: Pt, ctx: RenderCtx) {
  return {
    ...(spec.identifiable && { dataPointName: nameOf(spec, person, p) }),
    [payloadKeyOf(spec.id)]: payloadOf(spec, person, p, ctx),
  };
}

/** Points a data source family keeps (reconcile, roll-ups): the tracker's and the scale's; the phone's overlap is merged away. */
const merged = (p: Pt) => p.source !== 'phone';

// ------------------------------------------------------------ the routes

export function registerGoogleHealthRoutes(
  app: FastifyInstance,
  deps: { clock: SimClock; config: () => GoogleHealthConfig; guard: GhGuard },
) {
  const { clock, guard } = deps;
  const renderCtx = (): RenderCtx => ({ now: clock.now().getTime(), config: deps.config() });
  const today = (person: Person) => {
    const now = clock.now().getTime();
    return localDateAt(zoneAt(person, now), now);
  };

  /** Wraps a handler: Google's errors thrown inside become Google's error bodies. */
  const wrap =
    (
      method: string,
      scope: ScopeArea | 'any' | ((r: FastifyRequest) => ScopeArea),
      fn: (person: Person, request: FastifyRequest) => unknown,
    ) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      let area: ScopeArea | 'any';
      try {
        area = typeof scope === 'function' ? scope(request) : scope;
      } catch {
        area = 'any'; // an unknown data type: authenticate first, refuse the type after
      }
      const person = await guard(request, reply, method, area);
      if (!person) return reply;
      return fn(person, request);
    };

  const specOf = (
    request: FastifyRequest,
    action: 'list' | 'rollUp' | 'dailyRollUp' | 'get',
  ): DataTypeSpec => {
    const { dataType } = request.params as { dataType: string };
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(dataType))
      throw bad(
        `Invalid data type collection format: '${dataType}'. Expected users/{user}/dataTypes/{data_type} with a kebab-case data type.`,
        'INVALID_PARENT_DATA_TYPE_COLLECTION_FORMAT',
      );
    const spec = DATA_TYPES.get(dataType);
    if (!spec)
      throw bad(`The data type ID ${dataType} is not supported`, 'INVALID_PARENT_DATA_TYPE_COLLECTION');
    const cfg = deps.config();
    const can = { list: spec.list(cfg), rollUp: spec.rollUp(cfg), dailyRollUp: spec.dailyRollUp(cfg) };
    const allowed = action === 'get' ? can.list && spec.identifiable : can[action];
    if (!allowed) {
      const names = [
        can.list && 'list',
        can.list && 'reconcile',
        can.rollUp && 'rollup',
        can.dailyRollUp && 'dailyRollup',
      ].filter(Boolean);
      const verb = { list: 'List', rollUp: 'Rollup', dailyRollUp: 'DailyRollup', get: 'Get' }[action];
      throw bad(
        `${verb} is not supported for data type ${dataType}, but the following actions are supported: ${names.join(', ')}`,
      );
    }
    return spec;
  };
  const areaOf = (request: FastifyRequest): ScopeArea => {
    const spec = DATA_TYPES.get((request.params as { dataType: string }).dataType);
    if (!spec) throw new Error('unknown');
    return spec.scope;
  };

  // --- Profile service -------------------------------------------------------
  app.get(
    '/v4/users/:user/identity',
    wrap('HealthProfileService.GetIdentity', 'any', (person) => ({
      name: 'users/me/identity',
      healthUserId: person.healthUserId,
      ...(person.legacyUserId && { legacyUserId: person.legacyUserId }),
    })),
  );

  app.get(
    '/v4/users/:user/profile',
    wrap('HealthProfileService.GetProfile', 'profile', (person) => {
      const seed = createHash('sha256').update(`${person.dataUserId}:profile`).digest();
      const stride = 640 + (seed.readUInt16BE(0) % 140);
      return omitDefaults({
        name: 'users/me/profile',
        age: ageOf(person.dataUserId),
        membershipStartDate: gDate(MEMBER_SINCE),
        autoWalkingStrideLengthMm: stride,
        autoRunningStrideLengthMm: Math.round(stride * 1.38),
      });
    }),
  );

  app.get(
    '/v4/users/:user/settings',
    wrap('HealthProfileService.GetSettings', 'settings', (person) => {
      const now = clock.now().getTime();
      const tz = zoneAt(person, now);
      return {
        name: 'users/me/settings',
        autoStrideEnabled: true,
        distanceUnit: 'DISTANCE_UNIT_KILOMETERS',
        glucoseUnit: 'GLUCOSE_UNIT_MG_DL',
        heightUnit: 'HEIGHT_UNIT_CENTIMETERS',
        weightUnit: 'WEIGHT_UNIT_KILOGRAMS',
        temperatureUnit: 'TEMPERATURE_UNIT_CELSIUS',
        swimUnit: 'SWIM_UNIT_METERS',
        waterUnit: 'WATER_UNIT_ML',
        languageLocale: 'en_US',
        timeZone: tz,
        utcOffset: utcOffset(tz, now),
        strideLengthWalkingType: 'STRIDE_LENGTH_TYPE_AUTO',
        strideLengthRunningType: 'STRIDE_LENGTH_TYPE_AUTO',
        foodLanguageCode: 'en-US',
      };
    }),
  );

  /** The paired devices: the legacy devices list of the same person, last sync as a UTC instant. */
  const pairedDevices = (person: Person) => {
    const now = clock.now();
    return fitbitDevices(person.dataUserId, now).map((d) => {
      const o = person.devices[d.type] ?? {};
      const synced = lastSync(person.dataUserId, d.type === 'TRACKER' ? 'tracker' : 'scale', now);
      return omitDefaults({
        name: `users/me/pairedDevices/${d.id}`,
        deviceType: d.type,
        batteryStatus: o.batteryStatus ?? d.battery,
        batteryLevel: o.batteryLevel ?? d.batteryLevel,
        lastSyncTime: o.lastSyncTime ?? timestamp(synced.getTime()),
        deviceVersion: d.deviceVersion,
        macAddress: d.mac,
        features:
          d.type === 'TRACKER'
            ? ['STEPS', 'HEART_RATE', 'SPO2', 'SLEEP', 'ACTIVE_ZONE_MINUTES']
            : ['WEIGHT', 'BODY_FAT'],
      });
    });
  };

  app.get(
    '/v4/users/:user/pairedDevices',
    wrap('HealthProfileService.ListPairedDevices', 'settings', (person, request) => {
      const q = request.query as Record<string, string | undefined>;
      const size = pageSizeOf(q.pageSize, 5, 100);
      const binding = bindingOf('pairedDevices', person.healthUserId);
      const from = q.pageToken ? decodeToken<{ i: number }>(q.pageToken, binding).i : 0;
      const all = pairedDevices(person);
      const page = all.slice(from, from + size);
      return {
        ...(page.length > 0 && { pairedDevices: page }),
        ...(from + size < all.length && { nextPageToken: encodeToken(binding, { i: from + size }) }),
      };
    }),
  );

  app.get(
    '/v4/users/:user/pairedDevices/:id',
    wrap('HealthProfileService.GetPairedDevice', 'settings', (person, request) => {
      const { id } = request.params as { id: string };
      const d = pairedDevices(person).find((x) => x.name.endsWith(`/${id}`));
      if (!d) throw new GoogleApiError(404, `Paired device users/me/pairedDevices/${id} not found.`);
      return d;
    }),
  );

  // --- Data points -------------------------------------------------------------
  /** One page of list / reconcile. */
  function listPage(
    spec: DataTypeSpec,
    person: Person,
    q: Record<string, string | undefined>,
    reconcile: boolean,
  ) {
    const cfg = deps.config();
    const max = spec.pageMax ?? 10_000;
    const size = pageSizeOf(q.pageSize, spec.pageMax ?? cfg.listDefaultPageSize, max);
    const family = q.dataSourceFamily;
    if (reconcile && family !== undefined && !FAMILIES.includes(family))
      throw bad(`Invalid data source family: ${family}`, 'INVALID_DATA_POINT_DATA_SOURCE_FAMILY');
    const filter = parseFilter(spec, q.filter ?? '');
    const bounds = dateBounds(filter);
    const hi = [bounds.to ?? today(person), today(person)].sort()[0]!;
    const lo = [bounds.from ?? MEMBER_SINCE, MEMBER_SINCE].sort()[1]!;
    const binding = bindingOf(
      reconcile ? 'reconcile' : 'list',
      spec.id,
      person.healthUserId,
      q.filter ?? '',
      family ?? '',
    );
    const pos = q.pageToken ? decodeToken<{ d: string; i: number }>(q.pageToken, binding) : { d: hi, i: 0 };
    const out: Pt[] = [];
    let d = pos.d;
    for (let scanned = 0; d >= lo && scanned < cfg.listScanDays; scanned++, d = addDays(d, -1)) {
      const pts = pointsOfDate(spec, person, d, cfg).filter(
        (p) => (!reconcile || merged(p)) && matches(spec, filter, p),
      );
      for (let k = d === pos.d ? pos.i : 0; k < pts.length; k++) {
        if (out.length === size) return { points: out, next: encodeToken(binding, { d, i: k }) };
        out.push(pts[k]!);
      }
    }
    return { points: out, ...(d >= lo && { next: encodeToken(binding, { d, i: 0 }) }) };
  }

  app.get(
    '/v4/users/:user/dataTypes/:dataType/dataPoints',
    wrap('DataPointsService.ListDataPoints', areaOf, (person, request) => {
      const spec = specOf(request, 'list');
      const page = listPage(spec, person, request.query as Record<string, string | undefined>, false);
      // proto3 JSON leaves an empty list out: an empty page is `{}` or just a token.
      return {
        ...(page.points.length > 0 && {
          dataPoints: page.points.map((p) => renderListed(spec, person, p, renderCtx())),
        }),
        ...(page.next && { nextPageToken: page.next }),
      };
    }),
  );

  app.get(
    '/v4/users/:user/dataTypes/:dataType/dataPoints::reconcile',
    wrap('DataPointsService.ReconcileDataPoints', areaOf, (person, request) => {
      const spec = specOf(request, 'list');
      const page = listPage(spec, person, request.query as Record<string, string | undefined>, true);
      return {
        ...(page.points.length > 0 && {
          dataPoints: page.points.map((p) => renderReconciled(spec, person, p, renderCtx())),
        }),
        ...(page.next && { nextPageToken: page.next }),
      };
    }),
  );

  app.get(
    '/v4/users/:user/dataTypes/:dataType/dataPoints/:id',
    wrap('DataPointsService.GetDataPoint', areaOf, (person, request) => {
      const spec = specOf(request, 'get');
      const { id } = request.params as { id: string };
      // Sleep and exercise ids start with their date (yyyymmdd…); log ids are the legacy epoch-ms ids.
      const m = id.match(/^(\d{4})(\d{2})(\d{2})\d{3,5}$/);
      const date = m
        ? `${m[1]}-${m[2]}-${m[3]}`
        : /^\d{12,14}$/.test(id)
          ? new Date(Number(id)).toISOString().slice(0, 10)
          : '';
      const p = date ? pointsOfDate(spec, person, date, deps.config()).find((x) => x.id === id) : undefined;
      if (!p || date > today(person))
        throw new GoogleApiError(
          404,
          `Data point users/${person.healthUserId}/dataTypes/${spec.id}/dataPoints/${id} not found.`,
        );
      return renderListed(spec, person, p, renderCtx());
    }),
  );

  /** Points of a type between two local dates (inclusive), merged sources, oldest first. */
  function pointsBetween(spec: DataTypeSpec, person: Person, from: string, to: string): Pt[] {
    const cfg = deps.config();
    const out: Pt[] = [];
    const last = [to, today(person)].sort()[0]!;
    for (let d = from; d <= last; d = addDays(d, 1))
      for (const p of pointsOfDate(spec, person, d, cfg)) if (merged(p)) out.push(p);
    return out.sort((a, b) => a.t - b.t);
  }

  const maxDaysOf = (spec: DataTypeSpec, daily: boolean) =>
    daily && deps.config().dailyRollUpMaxDays === 14 ? 14 : spec.maxRollUpDays;

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
      if (b.dataSourceFamily !== undefined && !FAMILIES.includes(String(b.dataSourceFamily)))
        throw bad(
          `Invalid data source family: ${String(b.dataSourceFamily)}`,
          'INVALID_DATA_POINT_DATA_SOURCE_FAMILY',
        );
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
      const cfg = deps.config();
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
      if (b.dataSourceFamily !== undefined && !FAMILIES.includes(String(b.dataSourceFamily)))
        throw bad(
          `Invalid data source family: ${String(b.dataSourceFamily)}`,
          'INVALID_DATA_POINT_DATA_SOURCE_FAMILY',
        );
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
