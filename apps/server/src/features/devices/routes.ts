import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { notFound } from '../../http/errors.js';
import { guardFor } from '../auth/session.js';

const tags = ['devices'];
const teamParams = z.object({ teamId: z.coerce.number().int().positive() });

/** A team's device configuration is readable by its members; Sys_Admin configures every team. */
function requireTeamAccess(request: FastifyRequest, teamId: number) {
  const actor = actorOf(request);
  if (actor.teamId !== teamId && actor.role !== 'Sys_Admin') throw notFound('Team not found');
}

export function registerDeviceRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/teamAllowedDevices/:teamId',
    {
      onRequest: guardFor('GET /api/teamAllowedDevices/:teamId'),
      schema: {
        tags,
        summary: 'Device brands the team may use',
        params: teamParams,
        response: { 200: z.array(z.object({ brand_name: z.string() })) },
      },
    },
    async (request) => {
      requireTeamAccess(request, request.params.teamId);
      return ctx.db
        .selectFrom('team_allowed_brands')
        .select('brand_name')
        .where('team_id', '=', request.params.teamId)
        .where('is_active', '=', true)
        .orderBy('brand_name')
        .execute();
    },
  );

  r.get(
    '/api/teamSupportedDevices/:teamId',
    {
      onRequest: guardFor('GET /api/teamSupportedDevices/:teamId'),
      schema: {
        tags,
        summary: "The team's supported devices (from the global catalog)",
        params: teamParams,
        response: {
          200: z.array(
            z.object({
              id: z.number(),
              team_id: z.number(),
              global_device_catalog_id: z.number(),
              device_name: z.string(),
              device_type: z.string(),
              manufacturer: z.string(),
              is_active: z.boolean(),
              notes: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      requireTeamAccess(request, request.params.teamId);
      return ctx.db
        .selectFrom('team_supported_devices as s')
        .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
        .select([
          's.id',
          's.team_id',
          's.global_device_catalog_id',
          'g.device_name',
          'g.device_type',
          'g.manufacturer',
          's.is_active',
          's.notes',
        ])
        .where('s.team_id', '=', request.params.teamId)
        .orderBy('g.manufacturer')
        .orderBy('g.device_name')
        .execute();
    },
  );
}
