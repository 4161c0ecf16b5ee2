import { authResponseSchema, sysAdminTeamSchema, teamSchema, userTeamSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { idSchema } from '../../http/params.js';
import { identityOf } from '../../http/session-identity.js';
import { listAllTeams, listTeams, listUserTeams, selectTeam } from './service.js';

const tags = ['teams'];

export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/team',
    {
      schema: {
        tags,
        summary: "The signed-in user's teams (every team for Sys_Admin)",
        response: { 200: z.array(teamSchema) },
      },
    },
    async (request) => listTeams(ctx, identityOf(request)),
  );

  r.get(
    '/api/sysAdminTeamsData',
    {
      schema: {
        tags,
        summary: 'Every team (Sys_Admin)',
        response: { 200: z.array(sysAdminTeamSchema) },
      },
    },
    async () => listAllTeams(ctx),
  );

  r.get(
    '/api/userTeamsData/:userId',
    {
      schema: {
        tags,
        summary: "A user's teams with the role in each (own user only, unless Sys_Admin)",
        params: z.object({ userId: idSchema }),
        response: { 200: z.array(userTeamSchema) },
      },
    },
    async (request) => listUserTeams(ctx, identityOf(request), request.params.userId),
  );

  r.post(
    '/api/selectTeam',
    {
      schema: {
        tags,
        summary:
          "Switch the session to another of the user's teams; the role comes from that membership, never from the body",
        body: z.object({
          teamId: idSchema,
          teamName: z.string().optional(),
          role: z.string().optional(),
        }),
        response: { 200: authResponseSchema },
      },
    },
    async (request) => selectTeam(ctx, identityOf(request), request.body.teamId),
  );
}
