import { degradedHealthResultSchema, healthResultSchema, readyResultSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { checkHealth, checkReady } from './service.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/health',
    {
      schema: {
        tags: ['meta'],
        summary: 'Liveness: 200 while the process answers; database and queue status for information',
        response: { 200: healthResultSchema.or(degradedHealthResultSchema) },
      },
    },
    async () => checkHealth(ctx),
  );
  r.get(
    '/api/ready',
    {
      schema: {
        tags: ['meta'],
        summary: 'Readiness: 200 when the database answers and its migrations are this build’s, else 503',
        response: { 200: readyResultSchema, 503: readyResultSchema },
      },
    },
    async (_request, reply) => {
      const ready = await checkReady(ctx);
      return reply.status(ready.status === 'ready' ? 200 : 503).send(ready);
    },
  );
}
