import { authStatusSchema, sessionUserSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { forbidden, notFound } from '../../http/errors.js';
import * as authRepo from '../auth/repo.js';
import { buildSessionUser, requireRole, setSessionTeam } from '../auth/session.js';

const tags = ['teams'];

export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const memberships = (userId: number) =>
    ctx.db
      .selectFrom('team_memberships as m')
      .innerJoin('teams as t', 't.id', 'm.team_id')
      .select(['m.team_id', 't.team_name', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('t.team_name')
      .execute();

  r.get(
    '/api/team',
    {
      onRequest: requireRole('any'),
      schema: {
        tags,
        summary: "The signed-in user's teams (every team for Sys_Admin)",
        response: { 200: z.array(z.object({ id: z.number(), team_name: z.string() })) },
      },
    },
    async (request) => {
      if (request.auth!.role === 'Sys_Admin') {
        return ctx.db.selectFrom('teams').select(['id', 'team_name']).orderBy('team_name').execute();
      }
      return (await memberships(request.auth!.user.id)).map((m) => ({
        id: m.team_id,
        team_name: m.team_name,
      }));
    },
  );

  r.get(
    '/api/sysAdminTeamsData',
    {
      onRequest: requireRole(['Sys_Admin']),
      schema: {
        tags,
        summary: 'Every team (Sys_Admin)',
        response: { 200: z.array(z.object({ team_id: z.number(), team_name: z.string() })) },
      },
    },
    async () =>
      ctx.db.selectFrom('teams').select(['id as team_id', 'team_name']).orderBy('team_name').execute(),
  );

  r.get(
    '/api/userTeamsData/:userId',
    {
      onRequest: requireRole('any'),
      schema: {
        tags,
        summary: "A user's teams with the role in each (own user only, unless Sys_Admin)",
        params: z.object({ userId: z.coerce.number().int().positive() }),
        response: {
          200: z.array(z.object({ team_id: z.number(), team_name: z.string(), role: z.string() })),
        },
      },
    },
    async (request) => {
      const self = request.auth!.user.id === request.params.userId;
      if (!self && request.auth!.role !== 'Sys_Admin') throw notFound('User not found');
      return memberships(request.params.userId);
    },
  );

  r.post(
    '/api/selectTeam',
    {
      onRequest: requireRole('any'),
      schema: {
        tags,
        summary:
          "Switch the session to another of the user's teams; the role comes from that membership, never from the body",
        body: z.object({
          teamId: z.coerce.number().int().positive(),
          teamName: z.string().optional(),
          role: z.string().optional(),
        }),
        response: { 200: z.object({ message: authStatusSchema, user: sessionUserSchema }) },
      },
    },
    async (request) => {
      const auth = request.auth!;
      const membership = await authRepo.findMembership(ctx.db, auth.user.id, request.body.teamId);
      if (!membership) throw forbidden();
      await setSessionTeam(ctx, auth.sessionId, membership.team_id);
      await ctx.db
        .updateTable('users')
        .set({ last_selected_team_id: membership.team_id })
        .where('id', '=', auth.user.id)
        .execute();
      await recordAudit(ctx.db, {
        userId: auth.user.id,
        teamId: membership.team_id,
        action: 'team.selected',
        entityType: 'team',
        entityId: membership.team_id,
        before: { teamId: auth.teamId },
        after: { teamId: membership.team_id, role: membership.role },
        requestId: request.id,
        ip: request.ip,
      });
      const user = (await authRepo.findUserById(ctx.db, auth.user.id))!;
      const { sessionUser } = await buildSessionUser(ctx, user, membership.team_id);
      return { message: 'Authorized' as const, user: sessionUser };
    },
  );
}
