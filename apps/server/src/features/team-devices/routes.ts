import { teamAllowedDeviceSchema, teamSupportedDeviceSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { allowedBrands, supportedDevices } from './service.js';

const tags = ['devices'];
const teamParams = z.object({ teamId: idSchema });

export function registerTeamDeviceRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/teamAllowedDevices/:teamId',
    {
      schema: {
        tags,
        summary: 'Device brands the team may use',
        params: teamParams,
        response: { 200: z.array(teamAllowedDeviceSchema) },
      },
    },
    async (request) => allowedBrands(ctx, actorOf(request), request.params.teamId),
  );

  r.get(
    '/api/teamSupportedDevices/:teamId',
    {
      schema: {
        tags,
        summary: "The team's supported devices (from the global catalog)",
        params: teamParams,
        response: { 200: z.array(teamSupportedDeviceSchema) },
      },
    },
    async (request) => supportedDevices(ctx, actorOf(request), request.params.teamId),
  );
}
