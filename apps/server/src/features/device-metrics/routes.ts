import {
  availableMetricSchema,
  deviceMetricSettingSchema,
  putDeviceSettingsBodySchema,
  putDeviceSettingsResultSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { availableMetrics, deviceSettings, metricCatalog, replaceDeviceSettings } from './service.js';

const tags = ['device metrics'];
const deviceParams = z.object({ teamId: idSchema, deviceId: idSchema });

/** `syncSoon` starts the sync of newly enabled metrics at once (jobs/device-sync), passed in by the app. */
export function registerDeviceMetricRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  syncSoon: (ctx: AppContext, teamId: number, metricKeys: string[]) => Promise<unknown>,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/deviceSettings/enhanced/availableMetrics/:teamId/:deviceId/:deviceType',
    {
      schema: {
        tags,
        summary: "The catalog's metrics of the device's type (Sys_Admin)",
        params: deviceParams.extend({ deviceType: z.string().min(1).max(100) }),
        response: { 200: z.array(availableMetricSchema) },
      },
    },
    async (request) =>
      availableMetrics(
        ctx,
        actorOf(request),
        request.params.teamId,
        request.params.deviceId,
        request.params.deviceType,
      ),
  );

  r.get(
    '/api/deviceSettings/enhanced/deviceSettings/:teamId/:deviceId',
    {
      schema: {
        tags,
        summary: "The team device's metric settings (Sys_Admin)",
        params: deviceParams,
        response: { 200: z.array(deviceMetricSettingSchema) },
      },
    },
    async (request) => deviceSettings(ctx, actorOf(request), request.params.teamId, request.params.deviceId),
  );

  r.get(
    '/api/deviceSettings/enhanced/metricCatalog',
    {
      schema: {
        tags,
        summary: 'Every metric of the catalog, for the grouped metric dropdown (Sys_Admin)',
        response: { 200: z.array(availableMetricSchema) },
      },
    },
    async () => metricCatalog(ctx),
  );

  r.put(
    '/api/deviceSettings/:teamId/:deviceId',
    {
      schema: {
        tags,
        summary: "Replace the team device's whole metric settings list, in one transaction (Sys_Admin)",
        params: deviceParams,
        body: putDeviceSettingsBodySchema,
        response: { 200: putDeviceSettingsResultSchema },
      },
    },
    async (request) =>
      replaceDeviceSettings(
        ctx,
        actorOf(request),
        request.params.teamId,
        request.params.deviceId,
        request.body,
        (t, m) => syncSoon(ctx, t, m),
      ),
  );
}
