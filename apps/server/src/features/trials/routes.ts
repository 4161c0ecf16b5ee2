import {
  addTrialResultSchema,
  deleteTrialResultSchema,
  trialCodeResultSchema,
  trialDeleteSchema,
  trialFormSchema,
  trialSchema,
  trialUpdateSchema,
  updateTrialResultSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { addTrial, editTrial, listTrials, removeTrial, requireVisibleTrial } from './service.js';

const tags = ['trials'];

export function registerTrialRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/userTrials/',
    {
      schema: {
        tags,
        summary: "The signed-in user's trials in the current team (all of them for Sys_Admin and Admin)",
        response: { 200: z.array(trialSchema) },
      },
    },
    async (request) => listTrials(ctx, actorOf(request)),
  );

  r.post(
    '/api/userTrials',
    {
      schema: {
        tags,
        summary: 'Add a trial (Sys_Admin, Admin); the creator owns it',
        body: trialFormSchema,
        response: { 200: addTrialResultSchema },
      },
    },
    async (request) => {
      const trial = await addTrial(ctx, actorOf(request), request.body);
      return { trialId: trial.trialId, trial };
    },
  );

  r.put(
    '/api/userTrials',
    {
      schema: {
        tags,
        summary: 'Edit a trial (Sys_Admin, Admin, User)',
        body: trialUpdateSchema,
        response: { 200: updateTrialResultSchema },
      },
    },
    async (request) => {
      const { trialId, ...form } = request.body;
      return { trial: await editTrial(ctx, actorOf(request), trialId, form) };
    },
  );

  r.delete(
    '/api/userTrials',
    {
      schema: {
        tags,
        summary: 'Delete a trial without participants (Sys_Admin, Admin)',
        body: trialDeleteSchema,
        response: { 200: deleteTrialResultSchema },
      },
    },
    async (request) => {
      await removeTrial(ctx, actorOf(request), request.body.trialId);
      return { success: true as const, trialId: request.body.trialId };
    },
  );

  r.get(
    '/api/trialParticipants/:trialId/trialCode',
    {
      schema: {
        tags,
        summary: "The trial's code: the prefix of its participant codes",
        params: z.object({ trialId: idSchema }),
        response: { 200: trialCodeResultSchema },
      },
    },
    async (request) => {
      const { row } = await requireVisibleTrial(ctx, actorOf(request), request.params.trialId);
      return { data: { trial_code: row.trial_code } };
    },
  );
}
