/*
 * What the v4 route modules share: the guard that authenticates a data
 * call, Google's refusals, the data type a path names (and whether the
 * call is allowed for it), and the person's today.
 */

import { localDate } from '@trialwear/zone';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SimClock } from '../../clock.js';
import { DATA_TYPES } from '../data-types/catalogue.js';
import type { DataTypeSpec, ScopeArea } from '../data-types/spec.js';
import type { GoogleHealthConfig } from '../gh-config.js';
import { GoogleApiError } from '../gh-json.js';
import { type Person, zoneAt } from '../person.js';
import type { RenderCtx } from './render-point.js';

/** The authenticated caller of a data call, or null when the guard already answered. */
export type GhGuard = (
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  scope: ScopeArea | 'any',
) => Promise<Person | null>;

export interface RouteDeps {
  clock: SimClock;
  config: () => GoogleHealthConfig;
  guard: GhGuard;
}

export const DAY = 86_400_000;
const FAMILIES = [
  'users/me/dataSourceFamilies/all-sources',
  'users/me/dataSourceFamilies/google-wearables',
  'users/me/dataSourceFamilies/google-sources',
];

export const bad = (message: string, reason?: string) => new GoogleApiError(400, message, reason);

/** Refuses a `dataSourceFamily` that is sent and not one of Google's. */
export function checkFamily(family: unknown) {
  if (family !== undefined && !FAMILIES.includes(String(family)))
    throw bad(`Invalid data source family: ${String(family)}`, 'INVALID_DATA_POINT_DATA_SOURCE_FAMILY');
}

export type RouteKit = ReturnType<typeof routeKit>;

export function routeKit(deps: RouteDeps) {
  const { clock, guard } = deps;
  const renderCtx = (): RenderCtx => ({ now: clock.now().getTime(), config: deps.config() });
  const today = (person: Person) => {
    const now = clock.now().getTime();
    return localDate(zoneAt(person, now), now);
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

  return { clock, config: deps.config, renderCtx, today, wrap, specOf, areaOf };
}
