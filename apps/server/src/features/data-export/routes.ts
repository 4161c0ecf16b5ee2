import {
  batchExportBodySchema,
  batchExportResultSchema,
  exportDeviceParamsSchema,
  exportDeviceSchema,
  exportJobActionResultSchema,
  exportJobIdParamsSchema,
  exportJobsQuerySchema,
  exportJobsResultSchema,
  exportMetricSchema,
  exportParticipantSchema,
  exportPolicyBodySchema,
  exportPolicyResultSchema,
  exportTrialParamsSchema,
  exportTrialSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actor } from '../../access/actor.js';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import {
  cancelJob,
  deleteJob,
  listDevices,
  listJobs,
  listMetrics,
  listParticipants,
  listTrials,
  openDownload,
  requestExport,
  setExportPolicy,
} from './service.js';

const tags = ['data export'];

/** `wake` starts waiting export jobs of a team (jobs/data-export), passed in by the app. */
export function registerDataExportRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  wake: (ctx: AppContext, teamId: number) => Promise<void>,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/dataExport';

  r.get(
    `${base}/trials`,
    {
      schema: {
        tags,
        summary: 'The trials the caller may export from',
        response: { 200: z.array(exportTrialSchema) },
      },
    },
    async (request) => listTrials(ctx, actorOf(request)),
  );

  r.put(
    `${base}/trials/:trialId/policy`,
    {
      schema: {
        tags,
        summary: "The trial's export policy: whether exports with real dates are allowed (Admin)",
        params: z.object({ trialId: exportTrialParamsSchema.shape.trialId }),
        body: exportPolicyBodySchema,
        response: { 200: exportPolicyResultSchema },
      },
    },
    async (request) => setExportPolicy(ctx, actorOf(request), request.params.trialId, request.body),
  );

  r.get(
    `${base}/devices`,
    {
      schema: {
        tags,
        summary: "The team's active supported devices",
        response: { 200: z.array(exportDeviceSchema) },
      },
    },
    async (request) => listDevices(ctx, actorOf(request)),
  );

  r.get(
    `${base}/trials/:trialId/participants/:deviceId`,
    {
      schema: {
        tags,
        summary: "The trial's participants with a link of the device's brand (email null when hidden)",
        params: exportTrialParamsSchema,
        response: { 200: z.array(exportParticipantSchema) },
      },
    },
    async (request) =>
      listParticipants(ctx, actorOf(request), request.params.trialId, request.params.deviceId),
  );

  r.get(
    `${base}/metrics/:deviceId`,
    {
      schema: {
        tags,
        summary:
          'The metrics of the device the team may export (enabled by a Sys_Admin and stored by the team)',
        params: exportDeviceParamsSchema,
        response: { 200: z.array(exportMetricSchema) },
      },
    },
    async (request) => listMetrics(ctx, actorOf(request), request.params.deviceId),
  );

  r.get(
    `${base}/jobs`,
    {
      schema: {
        tags,
        summary: "The team's latest export jobs (at most 10) and the count of all",
        querystring: exportJobsQuerySchema,
        response: { 200: exportJobsResultSchema },
      },
    },
    async (request) => listJobs(ctx, actorOf(request), request.query.limit),
  );

  r.post(
    `${base}/batchDataExport`,
    {
      schema: {
        tags,
        summary: 'Request an export: a background job writes the ZIP and emails the requester',
        body: batchExportBodySchema,
        response: { 200: batchExportResultSchema },
      },
    },
    async (request) => requestExport(ctx, actorOf(request), request.body, (teamId) => wake(ctx, teamId)),
  );

  r.get(
    `${base}/jobs/:id/download`,
    {
      schema: {
        tags,
        summary: 'The ZIP of a completed job, streamed (410 once expired)',
        params: exportJobIdParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await openDownload(ctx, actorOf(request), request.params.id);
      const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('content-type', 'application/zip')
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('content-length', String(file.size))
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );

  /**
   * The actions on one job of the caller's team (delete, cancel): the job id
   * in the path, the service's `{ success, message, job? }` out. (The download
   * streams a file with its own headers, so it stays a route of its own.)
   */
  const jobAction = (
    method: 'DELETE' | 'POST',
    url: string,
    summary: string,
    act: (ctx: AppContext, actor: Actor, id: string) => Promise<z.infer<typeof exportJobActionResultSchema>>,
  ) =>
    r.route({
      method,
      url: `${base}${url}`,
      schema: {
        tags,
        summary,
        params: exportJobIdParamsSchema,
        response: { 200: exportJobActionResultSchema },
      },
      handler: async (request) => act(ctx, actorOf(request), request.params.id),
    });

  jobAction(
    'DELETE',
    '/jobs/:id',
    'Delete a finished job and its file (completed, failed, cancelled or expired)',
    deleteJob,
  );
  jobAction(
    'POST',
    '/jobs/:id/cancel',
    'Cancel a pending or processing job (its worker stops within a second and keeps no file)',
    cancelJob,
  );
}
