/*
 * A background job, defined once: its queue name, the zod schema of its
 * payload, the handler, how it is de-duplicated (singleton key), how it is
 * retried, and optionally a cron schedule. The runner (runner.ts) registers
 * every definition on pg-boss in the server or in `npm run worker`; callers
 * enqueue through `enqueue()` so a payload is validated before it is stored.
 */
import type PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { AppContext } from '../app-context.js';

/** What a handler may use: the same context as a route, minus HTTP (there is none in a worker). */
export type JobContext = AppContext;

export interface RetryPolicy {
  /** Attempts after the first. */
  limit: number;
  delaySeconds: number;
  /** Exponential back-off (pg-boss doubles the delay each retry, with jitter). */
  backoff: boolean;
}

export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  payload: P;
  handler: (ctx: JobContext, payload: z.infer<P>) => Promise<unknown>;
  /** Jobs with the same key never wait or run twice at once (pg-boss singletonKey). */
  singletonKey?: (payload: z.infer<P>) => string;
  retry: RetryPolicy;
  /**
   * pg-boss queue policy; 'stately': per singleton key at most one job waiting
   * and one running, so two processes never run the same key at once;
   * 'short': per singleton key at most one job waiting (running ones not limited).
   */
  policy?: 'standard' | 'stately' | 'short';
  /**
   * Workers per process for this queue (default 1). Jobs that mostly wait for a provider (device
   * sync) run several at once, so one slow or rate-limited device does not hold up the rest.
   */
  workers?: number;
  /** A job running longer than this is failed and retried (pg-boss expireInSeconds). */
  expireInSeconds: number;
  /** Cron expression (UTC) and payload for a recurring job; pg-boss runs it once per slot across all processes. */
  schedule?: { cron: string; payload: z.infer<P> };
}

export function defineJob<P extends z.ZodType>(def: JobDefinition<P>): JobDefinition<P> {
  return def;
}

/** Enqueue a job; the payload is validated now, not when a worker picks it up. */
export async function enqueue<P extends z.ZodType>(
  boss: PgBoss,
  def: JobDefinition<P>,
  payload: z.input<P>,
  options: PgBoss.SendOptions = {},
): Promise<string | null> {
  const data = def.payload.parse(payload) as object;
  return boss.send(def.name, data, {
    ...(def.singletonKey ? { singletonKey: def.singletonKey(data as z.infer<P>) } : {}),
    ...options,
  });
}
