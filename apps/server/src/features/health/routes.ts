import { degradedHealthResultSchema, healthResultSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { checkHealth } from './service.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['meta'],
        summary: 'Database and queue status (503 when either is down)',
        response: {
          200: healthResultSchema,
          503: degradedHealthResultSchema,
        },
      },
    },
    async (_request, reply) => {
      const { status, database, queue } = await checkHealth(ctx);
      if (status === 'ok') return { status, database, queue };
      return reply.status(503).send({ status, database, queue });
    },
  );
}
