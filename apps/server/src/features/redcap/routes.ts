import {
  redcapEnrolApplyBodySchema,
  redcapEnrolApplyResultSchema,
  redcapEnrolPreviewSchema,
  redcapLogSchema,
  redcapPushBodySchema,
  redcapPushResultSchema,
  redcapSettingsAnswerSchema,
  redcapSettingsBodySchema,
  redcapTestBodySchema,
  redcapTestResultSchema,
  redcapTrialParamsSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { applyEnrol, previewEnrol } from './enrol.js';
import { manualPush } from './push.js';
import { getLog, getSettings, saveSettings, testConnection } from './service.js';

const tags = ['REDCap'];
const base = '/api/trials/:trialId/redcap';
const params = redcapTrialParamsSchema;

export function registerRedcapRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    base,
    {
      schema: {
        tags,
        summary: "The trial's REDCap settings (never the token: only whether one is stored), or null",
        params,
        response: { 200: redcapSettingsAnswerSchema },
      },
    },
    async (request) => getSettings(ctx, actorOf(request), request.params.trialId),
  );

  r.put(
    base,
    {
      schema: {
        tags,
        summary:
          "Saves the trial's REDCap settings once REDCap confirms them (token, fields, repeating instrument, event against content=project and content=metadata); a refusal names the field and saves nothing",
        params,
        body: redcapSettingsBodySchema,
        response: { 200: redcapSettingsAnswerSchema },
      },
    },
    async (request) => saveSettings(ctx, actorOf(request), request.params.trialId, request.body),
  );

  r.post(
    `${base}/test`,
    {
      schema: {
        tags,
        summary: 'Test connection: reads content=project with the given URL and token, else the stored ones',
        params,
        body: redcapTestBodySchema,
        response: { 200: redcapTestResultSchema },
      },
    },
    async (request) => testConnection(ctx, actorOf(request), request.params.trialId, request.body),
  );

  r.post(
    `${base}/push`,
    {
      schema: {
        tags,
        summary:
          'Pushes the daily summaries of participant-local dates from … to into the repeating instrument (one instance per participant-day; a day pushed again overwrites its instance)',
        params,
        body: redcapPushBodySchema,
        response: { 200: redcapPushResultSchema },
      },
    },
    async (request) => manualPush(ctx, actorOf(request), request.params.trialId, request.body),
  );

  r.get(
    `${base}/log`,
    {
      schema: {
        tags,
        summary: "The trial's last 100 pushes to REDCap, newest first, with REDCap's error when one failed",
        params,
        response: { 200: redcapLogSchema },
      },
    },
    async (request) => getLog(ctx, actorOf(request), request.params.trialId),
  );

  r.post(
    `${base}/enrol/preview`,
    {
      schema: {
        tags,
        summary:
          "The REDCap project's records as participants: per record, create, update, unchanged or refused (the add call's messages and the team's limit)",
        params,
        response: { 200: redcapEnrolPreviewSchema },
      },
    },
    async (request) => previewEnrol(ctx, actorOf(request), request.params.trialId),
  );

  r.post(
    `${base}/enrol/apply`,
    {
      schema: {
        tags,
        summary:
          'Creates and updates the previewed participants in one transaction, or nothing (409) when the verdicts changed since the preview',
        params,
        body: redcapEnrolApplyBodySchema,
        response: { 200: redcapEnrolApplyResultSchema },
      },
    },
    async (request) => applyEnrol(ctx, actorOf(request), request.params.trialId, request.body.previewDigest),
  );
}
