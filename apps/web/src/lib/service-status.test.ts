import { describe, expect, it } from 'vitest';
import { createServiceStatus } from './service-status';

/** A scheduler the test runs by hand, and a probe whose answers the test sets. */
function harness() {
  const pending: Array<{ fn: () => void; ms: number }> = [];
  let ready = false;
  let probes = 0;
  const status = createServiceStatus(
    async () => {
      probes++;
      return ready;
    },
    (fn, ms) => pending.push({ fn, ms }),
  );
  const tick = async () => {
    const next = pending.shift();
    next?.fn();
    await new Promise((r) => setTimeout(r, 0));
    return next?.ms;
  };
  return {
    status,
    tick,
    setReady: (r: boolean) => {
      ready = r;
    },
    probes: () => probes,
    pending,
  };
}

describe('service status', () => {
  it('is available until a 503 says otherwise, and then tells its subscribers once', () => {
    const { status } = harness();
    let calls = 0;
    status.subscribe(() => calls++);
    expect(status.isUnavailable()).toBe(false);
    status.markUnavailable(5);
    status.markUnavailable(5);
    expect(status.isUnavailable()).toBe(true);
    expect(calls).toBe(1);
  });

  it('probes at the Retry-After interval until ready, then releases every waiting read', async () => {
    const { status, tick, setReady, probes } = harness();
    status.markUnavailable(7);
    let released = 0;
    void status.whenAvailable().then(() => released++);
    void status.whenAvailable().then(() => released++);
    expect(await tick()).toBe(7000);
    expect(probes()).toBe(1);
    expect(status.isUnavailable()).toBe(true);
    setReady(true);
    await tick();
    await new Promise((r) => setTimeout(r, 0));
    expect(probes()).toBe(2);
    expect(status.isUnavailable()).toBe(false);
    expect(released).toBe(2);
  });

  it('keeps one probe going however many requests fail', async () => {
    const { status, pending } = harness();
    for (let i = 0; i < 12; i++) status.markUnavailable(5);
    expect(pending).toHaveLength(1);
  });

  it('does not make a read wait when the service is available', async () => {
    const { status } = harness();
    await expect(status.whenAvailable()).resolves.toBeUndefined();
  });
});
