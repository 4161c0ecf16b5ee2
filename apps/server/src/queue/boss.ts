/*
 * pg-boss on the same PostgreSQL. Workers (export, device sync, retention,
 * mail) register on it in later features; the server runs them in-process.
 */
import PgBoss from 'pg-boss';

export interface QueueOptions {
  /** Run cron scheduling and maintenance (the server does; tests and schema installs don't need them). */
  background?: boolean;
}

export async function startQueue(connectionString: string, opts: QueueOptions = {}): Promise<PgBoss> {
  const background = opts.background ?? true;
  const boss = new PgBoss({ connectionString, max: 4, schedule: background, supervise: background });
  boss.on('error', (err) => {
    // Surface, never swallow: pg-boss reports maintenance/connection errors here.
    console.error('[queue] pg-boss error', err);
  });
  await boss.start();
  return boss;
}
