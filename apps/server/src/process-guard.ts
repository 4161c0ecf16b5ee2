/*
 * A process must not end because its database went away (issue 27). pg-boss 10
 * writes a job's outcome without awaiting it (manager.js: `this.complete(…)`,
 * `this.fail(…)` in its fetch loop, and the same on its own expiry timeout), so
 * when the database is down at that moment the rejection is unhandled, and
 * Node 20 ends the process on an unhandled rejection. jobs/runner.ts hands an
 * outcome over only once the database answers, which covers a job that meets
 * the outage; this guard covers what is left (a job outliving its expiry in an
 * outage, the database leaving between the probe and pg-boss's write): the lost
 * write is reported in one line and the process carries on; pg-boss retries the
 * job after its expiry. Any other unhandled rejection still ends the process,
 * as Node's default does.
 */
import { isDatabaseUnavailable } from './db/unavailable.js';

export function unhandledRejectionGuard(name: string) {
  return (reason: unknown) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    const code = (reason as { code?: string }).code ?? (reason as Error).message;
    console.error(
      `[${name}] a database write that nobody awaited was lost to an outage (${code}); carrying on`,
    );
  };
}

export function surviveDatabaseOutages(name: string) {
  process.on('unhandledRejection', unhandledRejectionGuard(name));
}
