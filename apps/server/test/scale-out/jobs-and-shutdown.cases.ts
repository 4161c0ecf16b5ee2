/*
 * Jobs and stopping: a job sent once runs once among two servers and a
 * worker; SIGTERM stops a server cleanly while the others keep serving (last:
 * it stops server C).
 */
import { expect, it } from 'vitest';
import { startQueue } from '../../src/queue/boss.js';
import type { Cluster } from './cluster.js';
import { until } from './cluster.js';

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

  it('SIGTERM: a server finishes, stops its workers and exits cleanly; the others keep serving', async () => {
    const { a, c } = cl;
    const exited = new Promise<number | null>((r) => c.child.once('exit', (code) => r(code)));
    c.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(c.output()).toContain('stopped cleanly');
    expect((await fetch(`${a.base}/api/ready`)).status).toBe(200);
  }, 40_000);
}
