/*
 * HTTP for device data (core §7): the spec's tracker, local-summary, scale
 * and glucose calls, and the Sys_Admin raw call the raw pages use. Who may
 * call each is in the contract's API_ACCESS table, applied centrally.
 */
import {
  DEXCOM_RESOURCES,
  dexcomDataResultSchema,
  dexcomQuerySchema,
  localSummaryResultSchema,
  omronDataResultSchema,
  omronQuerySchema,
  providerSchema,
  rawDataResultSchema,
  rawQuerySchema,
  trackerSeriesResultSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { dexcomData, fitbitData, getLocalSummary, omronData, rawData, saveLocalSummary } from './service.js';

const tags = ['device data'];
const idParams = z.object({ id: idSchema });

export function registerDeviceDataRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/getFitbitServerParticipantData/:participantId/:email/:resourcePath',
    {
      schema: {
        tags,
        summary:
          "Tracker data: one allow-listed resource path (URL-encoded as one segment) or /overview, with the participant's time zone",
        // :email is the spec's segment; it is never used (the participant comes from the id and the team).
        params: z.object({ participantId: idSchema, email: z.string(), resourcePath: z.string().max(300) }),
        response: { 200: trackerSeriesResultSchema },
      },
    },
    async (request) =>
      fitbitData(ctx, actorOf(request), request.params.participantId, request.params.resourcePath),
  );

  r.post(
    '/api/fitbitDataLocalDB/:id',
    {
      schema: {
        tags,
        summary:
          'Compute the 7-vs-7 local summary from provider data and store it (the body is accepted but never trusted)',
        params: idParams,
        body: z.object({ email: z.string().optional(), data: z.unknown().optional() }).optional(),
        response: { 200: localSummaryResultSchema },
      },
    },
    async (request) => saveLocalSummary(ctx, actorOf(request), request.params.id),
  );

  r.get(
    '/api/fitbitDataLocalDB/:id',
    {
      schema: {
        tags,
        summary: 'The stored local summary, or null',
        params: idParams,
        response: { 200: localSummaryResultSchema },
      },
    },
    async (request) => getLocalSummary(ctx, actorOf(request), request.params.id),
  );

  r.post(
    '/api/getOmronParticipantData/:id',
    {
      schema: {
        tags,
        summary: 'Blood pressure or weight readings since a local date, sorted and limited (0 = all)',
        params: idParams,
        body: omronQuerySchema,
        response: { 200: omronDataResultSchema },
      },
    },
    async (request) => omronData(ctx, actorOf(request), request.params.id, request.body.queryStr),
  );

  r.get(
    '/api/getDexcomParticipantData/:id/:query',
    {
      schema: {
        tags,
        summary: 'Dexcom records over a period (default the last 7 days; >30 days stitched, at most 90)',
        params: z.object({ id: idSchema, query: z.enum(DEXCOM_RESOURCES) }),
        querystring: dexcomQuerySchema,
        response: { 200: dexcomDataResultSchema },
      },
    },
    async (request) =>
      dexcomData(ctx, actorOf(request), request.params.id, request.params.query, request.query),
  );

  r.get(
    '/api/participantRaw/:participantId/:provider',
    {
      schema: {
        tags,
        summary:
          "The provider's answer exactly as received (status, rate-limit headers, body), Sys_Admin only",
        params: z.object({ participantId: idSchema, provider: providerSchema }),
        querystring: rawQuerySchema,
        response: { 200: rawDataResultSchema },
      },
    },
    async (request) =>
      rawData(ctx, actorOf(request), request.params.participantId, request.params.provider, request.query),
  );
}
