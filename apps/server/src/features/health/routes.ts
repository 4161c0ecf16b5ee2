import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';

const up = z.enum(['up', 'down']);

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['meta'],
        summary: 'Database and queue status (503 when either is down)',
        response: {
          200: z.object({ status: z.literal('ok'), database: up, queue: up }),
          503: z.object({ status: z.literal('degraded'), database: up, queue: up }),
        },
      },
    },
    async (_request, reply) => {
      const database = await sql`SELECT 1`.execute(ctx.db).then(
        () => 'up' as const,
        () => 'down' as const,
      );
      // pg-boss keeps its own pool; asking it for its schema version checks that path end to end.
      const queue = ctx.boss
        ? await ctx.boss.schemaVersion().then(
            (v) => (v ? ('up' as const) : ('down' as const)),
            () => 'down' as const,
          )
        : ('down' as const);
      if (database === 'up' && queue === 'up') return { status: 'ok' as const, database, queue };
      return reply.status(503).send({ status: 'degraded' as const, database, queue });
    },
  );
}
