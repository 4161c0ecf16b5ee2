/*
 * The data points of a type: list (AIP-160 filter, newest first, opaque
 * page tokens, a bounded scan that can answer an empty page with a token),
 * :reconcile (dataSourceFamily, no dataSource), and get for identifiable
 * types (sleep, exercise, logs).
 */

import { addDays } from '@trialwear/zone';
import type { FastifyInstance } from 'fastify';
import { MEMBER_SINCE } from '../data-types/legacy-day.js';
import { pointsOfDate } from '../data-types/points-of-date.js';
import type { DataTypeSpec, Pt } from '../data-types/spec.js';
import { dateBounds, matches, parseFilter } from '../filter.js';
import { GoogleApiError } from '../gh-json.js';
import type { Person } from '../person.js';
import { bindingOf, decodeToken, encodeToken, pageSizeOf } from './page-tokens.js';
import { merged, renderListed, renderReconciled } from './render-point.js';
import { checkFamily, type RouteKit } from './route-kit.js';

export function registerDataPointRoutes(
  app: FastifyInstance,
  { config, renderCtx, today, wrap, specOf, areaOf }: RouteKit,
) {
  /** One page of list / reconcile. */
  function listPage(
    spec: DataTypeSpec,
    person: Person,
    q: Record<string, string | undefined>,
    reconcile: boolean,
  ) {
    const cfg = config();
    const max = spec.pageMax ?? 10_000;
    const size = pageSizeOf(q.pageSize, spec.pageMax ?? cfg.listDefaultPageSize, max);
    const family = q.dataSourceFamily;
    if (reconcile) checkFamily(family);
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

  // list and :reconcile page alike; reconcile merges the sources and names points instead of their source.
  const listings = [
    {
      path: 'dataPoints',
      method: 'DataPointsService.ListDataPoints',
      reconcile: false,
      render: renderListed,
    },
    {
      path: 'dataPoints::reconcile',
      method: 'DataPointsService.ReconcileDataPoints',
      reconcile: true,
      render: renderReconciled,
    },
  ];
  for (const { path, method, reconcile, render } of listings)
    app.get(
      `/v4/users/:user/dataTypes/:dataType/${path}`,
      wrap(method, areaOf, (person, request) => {
        const spec = specOf(request, 'list');
        const page = listPage(spec, person, request.query as Record<string, string | undefined>, reconcile);
        // proto3 JSON leaves an empty list out: an empty page is `{}` or just a token.
        return {
          ...(page.points.length > 0 && {
            dataPoints: page.points.map((p) => render(spec, person, p, renderCtx())),
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
      const p = date ? pointsOfDate(spec, person, date, config()).find((x) => x.id === id) : undefined;
      if (!p || date > today(person))
        throw new GoogleApiError(
          404,
          `Data point users/${person.healthUserId}/dataTypes/${spec.id}/dataPoints/${id} not found.`,
        );
      return renderListed(spec, person, p, renderCtx());
    }),
  );
}
