/*
 * Before a job's outcome goes to pg-boss, the database must answer (issue 27
 * §4). pg-boss 10 writes the outcome of a handler (manager.js watch/onFetch:
 * `this.complete(…)` / `this.fail(…)`) without awaiting or retrying it: when
 * the database is away at that moment the write is lost and the job stays
 * 'active' until its expiry (expireInSeconds after it started) is noticed by
 * a maintenance run (every maintenanceIntervalSeconds), and only then is it
 * retried: a device sync caught by a database restart waited about 10
 * minutes. So the runner holds the outcome until the database answers again
 * and hands it over then: pg-boss writes the failure, and the job is retried
 * per its policy seconds after the restart, by the worker that was running
 * it. Bounded by the job's own expiry: past it pg-boss gives up on the
 * handler itself (and its maintenance would retry the job elsewhere), so the
 * wait never outlives the job's single-runner guarantee.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Between two probes while the database is away. */
const PROBE_MS = 1_000;

/**
 * Resolves true as soon as the database answers a trivial query (at once when
 * it is up), false when `deadline` (epoch ms) passes first.
 */
export async function untilDatabaseAnswers(db: Db, deadline: number): Promise<boolean> {
  for (;;) {
    const probe = sql`SELECT 1`.execute(db).then(
      () => true,
      () => false,
    );
    // A database that does not answer at all (a partition: no refusal) must not hold us past the
    // deadline; a probe still gets a moment even at the deadline (the caller leaves a margin).
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((r) => {
      timer = setTimeout(() => r(false), Math.max(PROBE_MS, deadline - Date.now()));
    });
    const answered = await Promise.race([probe, late]).finally(() => clearTimeout(timer));
    if (answered) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((r) => setTimeout(r, Math.min(PROBE_MS, left)));
  }
}
