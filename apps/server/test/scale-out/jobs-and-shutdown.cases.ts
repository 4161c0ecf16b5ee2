/*
 * Jobs and stopping: a job sent once runs once among the servers and a
 * worker; SIGTERM stops a server cleanly while the others keep serving (a
 * fourth server of the test's own, on the cluster's database: A, B and C
 * serve the other tests).
 */
import { expect, it } from 'vitest';
import { startQueue } from '../../src/queue/boss.js';
import { startServer } from '../support/processes.js';
import type { Cluster } from './cluster.js';
import { SLOW_START, until } from './cluster.js';

export function jobsAndShutdownCases(cl: Cluster) {
  it('a job sent once runs once, with two servers and a worker taking jobs', async () => {
    const { a, b, c, worker, appUrl } = cl;
    const boss = await startQueue(appUrl, { background: false });
    let id: string | null;
    try {
      // Due in two seconds: by then every process is polling the queue.
      id = await boss.send('expired-tokens-cleanup', {}, { startAfter: 2 });
      expect(id).toBeTruthy();
      await until(
        async () => (await boss.getJobById('expired-tokens-cleanup', id!))?.state === 'completed',
        'the job to complete',
      );
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    // A moment for a second run to show, were there one.
    await new Promise((r) => setTimeout(r, 3000));
    const line = `job expired-tokens-cleanup ${id} done`;
    const runs = [a.output(), b.output(), c.output(), worker.output()].map((o) => o.split(line).length - 1);
    expect(runs.reduce((n, r) => n + r, 0)).toBe(1);
  }, 90_000);

  it(
    'SIGTERM: a server finishes, stops its workers and exits cleanly; the others keep serving',
    async () => {
      const { a, b, env, dataDir } = cl;
      const d = await startServer({ ...env, DATA_DIR: dataDir() }, SLOW_START);
      try {
        expect((await fetch(`${d.base}/api/ready`)).status).toBe(200);
        const exited = new Promise<number | null>((r) => d.child.once('exit', (code) => r(code)));
        d.child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(d.output()).toContain('stopped cleanly');
        for (const s of [a, b]) expect((await fetch(`${s.base}/api/ready`)).status).toBe(200);
      } finally {
        if (d.child.exitCode === null) d.child.kill('SIGKILL');
      }
      // Starts a server first: its start's time limit, and the 40 s the stop had.
    },
    SLOW_START.timeoutMs + 40_000,
  );
}
