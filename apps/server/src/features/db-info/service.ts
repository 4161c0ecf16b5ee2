/** Database info (Sys_Admin): one page of 50 rows of a read-only table, with a global filter. */
import { type DbInfoTable, dbInfoQuerySchema, TABLE } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import * as repo from './repo.js';

export async function tablePage(ctx: AppContext, table: DbInfoTable, query: unknown) {
  const q = dbInfoQuerySchema.parse(query);
  const pageSize = TABLE.adminPageSize;
  const { rows, total } = await repo.tablePage(ctx.db, table, {
    filter: q.filter.trim(),
    offset: q.page * pageSize,
    limit: pageSize,
  });
  return { rows, total, page: q.page, pageSize };
}
