/*
 * Locked accounts (issue #9): the Sys_Admin's list and unlock, beside the
 * CLI's unlock-user. Scoped to the teams the caller is Sys_Admin of.
 */
import { actionResultSchema, lockedUserSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { listLockedUsers, unlockUserAccount } from './service.js';

const tags = ['users'];

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/users/locked',
    {
      schema: {
        tags,
        summary: 'Accounts locked now in the teams the caller is Sys_Admin of',
        response: { 200: z.array(lockedUserSchema) },
      },
    },
    async (request) => listLockedUsers(ctx, actorOf(request)),
  );
  r.post(
    '/api/users/:userId/unlock',
    {
      schema: {
        tags,
        summary: 'Unlock an account of a team the caller is Sys_Admin of (audited)',
        params: z.object({ userId: idSchema }),
        response: { 200: actionResultSchema },
      },
    },
    async (request) => unlockUserAccount(ctx, actorOf(request), request.params.userId),
  );
}
