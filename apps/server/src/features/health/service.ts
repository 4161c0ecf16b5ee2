import type { ReadyResult } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { knownMigrations } from '../../db/migrate.js';
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

let known: string[] | undefined;

/**
 * Ready for traffic: the database answers and holds exactly the migrations
 * this build knows (none pending; none unknown, which would mean a newer
 * version migrated it and this server's queries may no longer fit).
 */
export async function checkReady(ctx: Pick<AppContext, 'db'>): Promise<ReadyResult> {
  known ??= knownMigrations();
  const expected = known[known.length - 1] ?? '';
  const applied = await repo.appliedMigrations(ctx.db).catch(() => null);
  if (!applied)
    return {
      status: 'not_ready',
      database: 'down',
      migrations: { expected, applied: null, pending: known.length, unknown: 0 },
    };
  const done = new Set(applied);
  const mine = new Set(known);
  const pending = known.filter((m) => !done.has(m)).length;
  const unknown = applied.filter((m) => !mine.has(m)).length;
  return {
    status: pending === 0 && unknown === 0 ? 'ready' : 'not_ready',
    database: 'up',
    migrations: {
      expected,
      applied: known.filter((m) => done.has(m)).at(-1) ?? null,
      pending,
      unknown,
    },
  };
}
