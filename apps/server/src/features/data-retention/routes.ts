import {
  addStorageMetricBodySchema,
  storableMetricSchema,
  storageChangeResultSchema,
  storageDeviceSchema,
  storageSelectionSchema,
  teamRetentionSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { addMetric, devices, removeMetric, retention, selections, storableMetrics } from './service.js';

const tags = ['data storage'];
const teamParams = z.object({ teamId: idSchema });
const deviceType = z.string().min(1).max(100);
const typeParams = teamParams.extend({ deviceType });

/** `syncSoon` starts the sync of a newly stored metric at once (jobs/device-sync), passed in by the app. */
export function registerDataRetentionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  syncSoon: (ctx: AppContext, teamId: number, metricKeys: string[]) => Promise<unknown>,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/dataStorageService';

  r.get(
    `${base}/team/:teamId/devices`,
    {
      schema: {
        tags,
        summary: "The team's supported devices (the session's team unless Sys_Admin)",
        params: teamParams,
        response: { 200: z.array(storageDeviceSchema) },
      },
    },
    async (request) => devices(ctx, actorOf(request), request.params.teamId),
  );

  r.get(
    `${base}/team/:teamId/retention`,
    {
      schema: {
        tags,
        summary: "The team's retention period in days (null when none is set)",
        params: teamParams,
        response: { 200: teamRetentionSchema },
      },
    },
    async (request) => retention(ctx, actorOf(request), request.params.teamId),
  );

  r.get(
    `${base}/metrics/:deviceType`,
    {
      schema: {
        tags,
        summary: "The metrics a Sys_Admin enabled for the session team's devices of this type",
        params: z.object({ deviceType }),
        response: { 200: z.array(storableMetricSchema) },
      },
    },
    async (request) => storableMetrics(ctx, actorOf(request), request.params.deviceType),
  );

  r.get(
    `${base}/team/:teamId/device/:deviceType/selections`,
    {
      schema: {
        tags,
        summary: 'The metrics the team stores for this device type (404 when the team has no such device)',
        params: typeParams,
        response: { 200: z.array(storageSelectionSchema) },
      },
    },
    async (request) => selections(ctx, actorOf(request), request.params.teamId, request.params.deviceType),
  );

  r.post(
    `${base}/team/:teamId/device/:deviceType/metric`,
    {
      schema: {
        tags,
        summary: 'Store this metric for the team (only one a Sys_Admin enabled)',
        params: typeParams,
        body: addStorageMetricBodySchema,
        response: { 200: storageChangeResultSchema },
      },
    },
    async (request) =>
      addMetric(
        ctx,
        actorOf(request),
        request.params.teamId,
        request.params.deviceType,
        request.body,
        (t, m) => syncSoon(ctx, t, m),
      ),
  );

  r.delete(
    `${base}/team/:teamId/device/:deviceType/metric/:metricKey`,
    {
      schema: {
        tags,
        summary: 'Stop storing this metric for the team (stored readings stay until retention removes them)',
        params: typeParams.extend({ metricKey: z.string().min(1).max(100) }),
        response: { 200: storageChangeResultSchema },
      },
    },
    async (request) =>
      removeMetric(
        ctx,
        actorOf(request),
        request.params.teamId,
        request.params.deviceType,
        request.params.metricKey,
      ),
  );
}
