import {
  addParticipantResultSchema,
  addParticipantSchema,
  codeChangeResultSchema,
  codeChangeSchema,
  deleteParticipantResultSchema,
  editParticipantResultSchema,
  editParticipantSchema,
  type TrialParticipants,
  teamParticipantsSchema,
  trialParticipantsQuerySchema,
  trialParticipantsSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import {
  addParticipant,
  changeParticipantCode,
  editParticipant,
  listParticipantsJson,
  listVisibleParticipants,
  removeParticipant,
} from './service.js';

const tags = ['participants'];

export function registerParticipantRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trialParticipants/:trialId',
    {
      schema: {
        tags,
        summary:
          "The trial's participants; email and notes are left out when the team hides them. Optional ?filter= (the table's global filter), ?sort=&order= (one column) and ?page=&pageSize= (at most 500) for one page with the number matching (total)",
        params: z.object({ trialId: idSchema }),
        querystring: trialParticipantsQuerySchema,
        response: { 200: trialParticipantsSchema },
      },
      // The response schema documents the shape; the answer is JSON text built by PostgreSQL
      // (participants repo trialParticipantsJson), sent as is: re-validating and re-serialising
      // thousands of rows cost more than the query (bench/participants-list.ts, bench/load/).
      serializerCompiler: () => (data) => data as string,
    },
    async (request, reply) => {
      reply.type('application/json; charset=utf-8');
      const json = await listParticipantsJson(ctx, actorOf(request), request.params.trialId, request.query);
      // JSON text of the declared shape, passed through by the serializer above.
      return json as unknown as TrialParticipants;
    },
  );

  r.get(
    '/api/teamParticipants',
    {
      schema: {
        tags,
        summary:
          'Every participant of the trials the caller sees in the team, with those trials; hidden fields left out',
        response: { 200: teamParticipantsSchema },
      },
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request) => listVisibleParticipants(ctx, actorOf(request)),
  );

  r.post(
    '/api/trialParticipants',
    {
      schema: {
        tags,
        summary: 'Add a participant to a trial; code = trial code, dash, suffix',
        body: addParticipantSchema,
        response: { 200: addParticipantResultSchema },
      },
    },
    async (request) => addParticipant(ctx, actorOf(request), request.body),
  );

  r.put(
    '/api/participant',
    {
      schema: {
        tags,
        summary: "Edit a participant's gender, age, email and notes (the code changes through PATCH …/code)",
        body: editParticipantSchema,
        response: { 200: editParticipantResultSchema },
      },
    },
    async (request) => ({ participant: await editParticipant(ctx, actorOf(request), request.body) }),
  );

  r.patch(
    '/api/trialParticipants/:trialId/:participantId/code',
    {
      schema: {
        tags,
        summary: "Change (suffix) or clear (null) a participant's code",
        params: z.object({
          trialId: idSchema,
          participantId: idSchema,
        }),
        body: codeChangeSchema,
        response: { 200: codeChangeResultSchema },
      },
    },
    async (request) =>
      changeParticipantCode(
        ctx,
        actorOf(request),
        request.params.trialId,
        request.params.participantId,
        request.body.suffix,
      ),
  );

  r.delete(
    '/api/participant',
    {
      schema: {
        tags,
        summary: 'Delete a participant with their device links and readings (Sys_Admin, Admin, User)',
        body: z.object({ id: idSchema }),
        response: { 200: deleteParticipantResultSchema },
      },
    },
    async (request) => {
      await removeParticipant(ctx, actorOf(request), request.body.id);
      return { success: true as const, id: request.body.id };
    },
  );
}
