/*
 * pg-boss on the same PostgreSQL. Workers (export, device sync, retention,
 * mail) register on it in later features; the server runs them in-process.
 */
import PgBoss from 'pg-boss';
import { isDatabaseUnavailable } from '../db/unavailable.js';

export interface QueueOptions {
  /** Run cron scheduling and maintenance (the server does; tests and schema installs don't need them). */
  background?: boolean;
}

export async function startQueue(connectionString: string, opts: QueueOptions = {}): Promise<PgBoss> {
  const background = opts.background ?? true;
  const boss = new PgBoss({ connectionString, max: 4, schedule: background, supervise: background });
  boss.on('error', (err: Error & { code?: string }) => {
    // Surface, never swallow: pg-boss reports maintenance/connection errors here. A lost database
    // connection is one line (the error object carries the whole pg client); anything else its stack.
    if (isDatabaseUnavailable(err))
      console.error(`[queue] pg-boss: database unavailable (${err.code ?? err.message}); it retries`);
    else console.error('[queue] pg-boss error', err.stack ?? err);
  });
  await boss.start();
  return boss;
}
