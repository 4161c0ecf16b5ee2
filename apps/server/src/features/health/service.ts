import type { AppContext } from '../../app-context.js';
import * as repo from './repo.js';

type Up = 'up' | 'down';

/** Database and queue status; 'ok' only when both are up. */
export async function checkHealth(
  ctx: AppContext,
): Promise<{ status: 'ok' | 'degraded'; database: Up; queue: Up }> {
  const database = await repo.pingDatabase(ctx.db).then(
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
  return { status: database === 'up' && queue === 'up' ? 'ok' : 'degraded', database, queue };
}
