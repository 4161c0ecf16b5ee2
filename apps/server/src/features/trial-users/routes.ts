import {
  addTrialUserResultSchema,
  emailSchema,
  removeTrialUserResultSchema,
  teamUserSchema,
  trialUserSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { addTrialUser, listTeamUsers, listTrialUsers, removeTrialUser } from './service.js';

const tags = ['trial users'];
const trialIdParams = z.object({ trialId: idSchema });

export function registerTrialUserRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/teamUsers/:trialId',
    {
      schema: {
        tags,
        summary: "The team's users (for adding one to the trial)",
        params: trialIdParams,
        response: { 200: z.array(teamUserSchema) },
      },
    },
    async (request) => listTeamUsers(ctx, actorOf(request), request.params.trialId),
  );

  r.get(
    '/api/trialUsers/:trialId',
    {
      schema: {
        tags,
        summary: "The trial's users; the owner is marked",
        params: trialIdParams,
        response: { 200: z.array(trialUserSchema) },
      },
    },
    async (request) => listTrialUsers(ctx, actorOf(request), request.params.trialId),
  );

  r.post(
    '/api/trialUsers',
    {
      schema: {
        tags,
        summary: 'Add a team user to the trial',
        body: z.object({ userEmail: emailSchema, trialId: idSchema }),
        response: { 200: addTrialUserResultSchema },
      },
    },
    async (request) => ({
      data: await addTrialUser(ctx, actorOf(request), request.body.trialId, request.body.userEmail),
    }),
  );

  r.delete(
    '/api/trialUsers',
    {
      schema: {
        tags,
        summary: 'Remove a user from the trial (never the owner)',
        body: z.object({
          userId: idSchema,
          userEmail: z.string().optional(),
          trialId: idSchema,
        }),
        response: { 200: removeTrialUserResultSchema },
      },
    },
    async (request) => {
      await removeTrialUser(ctx, actorOf(request), request.body.trialId, request.body.userId);
      return { success: true as const, data: { userId: request.body.userId } };
    },
  );
}
