/*
 * The progress throttle on a hand-driven clock: writes begin at most once per
 * interval (start to start) and one at a time, each writes the latest figure,
 * a burst is followed by a trailing write of its last figure, stop() drops a
 * waiting write and awaits a running one, and a failed write does not stop
 * the next.
 */
import { describe, expect, it } from 'vitest';
import { type ThrottleClock, ThrottledWrites } from './progress-throttle.js';

/** A clock whose time moves only when the test says; due timers fire in order. */
function manualClock() {
  let t = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: ThrottleClock = {
    now: () => t,
    setTimeout: (fn, ms) => {
      seq += 1;
      timers.set(seq, { at: t + ms, fn });
      return seq;
    },
    clearTimeout: (h) => {
      timers.delete(h as number);
    },
  };
  const flush = () => new Promise((r) => setImmediate(r));
  return {
    clock,
    pendingTimers: () => timers.size,
    /** Advance to `to`, firing due timers (and letting writes settle) on the way. */
    async advance(ms: number) {
      const to = t + ms;
      for (;;) {
        await flush();
        const due = [...timers.entries()].filter(([, x]) => x.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        t = due[1].at;
        due[1].fn();
      }
      t = to;
      await flush();
    },
  };
}

/** A write that records when it started and finishes when the test resolves it (or at once). */
function recorder(clock: ThrottleClock, { manual = false } = {}) {
  const starts: Array<{ at: number; value: number }> = [];
  const finishers: Array<() => void> = [];
  let running = 0;
  let maxRunning = 0;
  const write = (value: number) => {
    starts.push({ at: clock.now(), value });
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    return new Promise<void>((resolve) => {
      const done = () => {
        running -= 1;
        resolve();
      };
      if (manual) finishers.push(done);
      else done();
    });
  };
  return { write, starts, finishers, maxRunning: () => maxRunning };
}

describe('ThrottledWrites', () => {
  it('a steady stream of reports: the first at once, then one write per interval, each the latest figure', async () => {
    const c = manualClock();
    const r = recorder(c.clock);
    const w = new ThrottledWrites(r.write, 250, { clock: c.clock });
    // A report every 10 ms for 2 s: 200 reports.
    for (let i = 1; i <= 200; i++) {
      w.report(i);
      await c.advance(10);
    }
    await c.advance(1_000);
    // 2 000 ms of reports, then the trailing write: at most 1 + 2000/250 + 1 writes.
    expect(r.starts.length).toBeLessThanOrEqual(10);
    expect(r.starts.length).toBeGreaterThanOrEqual(8);
    expect(r.starts[0]).toEqual({ at: 0, value: 1 });
    for (let i = 1; i < r.starts.length; i++)
      expect(r.starts[i]!.at - r.starts[i - 1]!.at).toBeGreaterThanOrEqual(250);
    // Each write carries the figure reported last before it began (report i at (i - 1) × 10 ms;
    // a timer due at the same instant fires first).
    for (const s of r.starts) expect(s.value).toBe(Math.min(200, Math.max(1, Math.ceil(s.at / 10))));
    // The last figure is written, once.
    expect(r.starts.at(-1)!.value).toBe(200);
    expect(r.starts.filter((s) => s.value === 200)).toHaveLength(1);
  });

  it('a burst, then nothing: its last figure is written within the interval (the trailing write)', async () => {
    const c = manualClock();
    const r = recorder(c.clock);
    const w = new ThrottledWrites(r.write, 250, { clock: c.clock });
    await c.advance(1_000);
    for (let i = 1; i <= 50; i++) w.report(i);
    expect(r.starts).toEqual([{ at: 1_000, value: 1 }]);
    await c.advance(249);
    expect(r.starts).toHaveLength(1);
    await c.advance(1);
    expect(r.starts).toEqual([
      { at: 1_000, value: 1 },
      { at: 1_250, value: 50 },
    ]);
    // Nothing changed since: no further writes, no timer left.
    await c.advance(5_000);
    expect(r.starts).toHaveLength(2);
    expect(c.pendingTimers()).toBe(0);
  });

  it('one write at a time: a slow write delays the next, which then writes the latest figure', async () => {
    const c = manualClock();
    const r = recorder(c.clock, { manual: true });
    const w = new ThrottledWrites(r.write, 250, { clock: c.clock });
    w.report(1);
    for (let i = 2; i <= 10; i++) {
      await c.advance(100);
      w.report(i);
    }
    // The first write still runs at 900 ms: no second one began.
    expect(r.starts).toHaveLength(1);
    r.finishers.shift()!();
    await c.advance(0);
    expect(r.starts).toEqual([
      { at: 0, value: 1 },
      { at: 900, value: 10 },
    ]);
    expect(r.maxRunning()).toBe(1);
  });

  it('stop(): a waiting write is dropped, a running one awaited, later reports ignored', async () => {
    const c = manualClock();
    const r = recorder(c.clock, { manual: true });
    const w = new ThrottledWrites(r.write, 250, { clock: c.clock });
    w.report(1);
    w.report(2);
    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    await c.advance(0);
    expect(stopped).toBe(false);
    r.finishers.shift()!();
    await stopping;
    w.report(3);
    await c.advance(1_000);
    expect(r.starts.map((s) => s.value)).toEqual([1]);
    expect(c.pendingTimers()).toBe(0);
  });

  it('a failed write is reported and the next figure is still written', async () => {
    const c = manualClock();
    const errors: unknown[] = [];
    const values: number[] = [];
    const w = new ThrottledWrites(
      async (v: number) => {
        values.push(v);
        if (v === 1) throw new Error('connection lost');
      },
      250,
      { clock: c.clock, onError: (e) => errors.push(e) },
    );
    w.report(1);
    await c.advance(0);
    w.report(2);
    await c.advance(250);
    expect(values).toEqual([1, 2]);
    expect(errors).toHaveLength(1);
  });
});
