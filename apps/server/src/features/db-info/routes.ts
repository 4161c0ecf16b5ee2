import {
  DB_INFO_TABLE_NAMES,
  DB_INFO_TABLES,
  dbInfoPageSchema,
  dbInfoQuerySchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { tablePage } from './service.js';

const tags = ['database info'];

/** GET /api/dbInfo/{table}?page=&filter= for each of the ten tables (Sys_Admin). */
export function registerDbInfoRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const table of DB_INFO_TABLE_NAMES) {
    r.get(
      `/api/dbInfo/${table}`,
      {
        schema: {
          tags,
          summary: `${DB_INFO_TABLES[table].title}: 50 rows a page, global filter (Sys_Admin)`,
          querystring: dbInfoQuerySchema,
          response: { 200: dbInfoPageSchema },
        },
      },
      async (request) => tablePage(ctx, table, request.query),
    );
  }
}
