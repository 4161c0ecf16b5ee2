/*
 * A throttle for writes of a changing figure (the export's rows written,
 * issue 27 §4): the writer reports every change, the throttle writes at
 * most one value per `intervalMs`, one write at a time, and always the
 * latest value. A trailing write follows a burst: when the figure stops
 * changing (the storage holds the file mid-way, the COPY waits), the last
 * figure is written within `intervalMs`, not left stale until the next
 * change. Writes are spaced start to start, so over any span of d ms at
 * most 1 + d / intervalMs writes begin, whatever the report rate.
 *
 * Time only, no "every N rows": a row threshold never binds a fast export
 * (thousands of rows per interval) and hides a slow one's progress, while
 * the interval alone already bounds the writes (docs/decisions/007).
 */

export interface ThrottleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: ThrottleClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class ThrottledWrites<T> {
  private latest: T | undefined;
  private pending = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;
  private timer: unknown = null;
  private stopped = false;

  constructor(
    private readonly write: (value: T) => Promise<void>,
    private readonly intervalMs: number,
    private readonly opts: { clock?: ThrottleClock; onError?: (err: unknown) => void } = {},
  ) {}

  private get clock() {
    return this.opts.clock ?? realClock;
  }

  /** The figure changed: written now if the interval allows, else as soon as it does (the latest then). */
  report(value: T): void {
    if (this.stopped) return;
    this.latest = value;
    this.pending = true;
    this.next();
  }

  /** No more writes: a waiting one is dropped, a running one is awaited (the caller's final write comes after it). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  private next(): void {
    if (this.stopped || !this.pending || this.inFlight || this.timer !== null) return;
    const wait = this.lastStart + this.intervalMs - this.clock.now();
    if (wait > 0) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null;
        this.next();
      }, wait);
      return;
    }
    this.pending = false;
    this.lastStart = this.clock.now();
    const value = this.latest as T;
    // A write that throws at once is a failed write like any other, not an exception in report().
    this.inFlight = new Promise<void>((resolve) => resolve(this.write(value)))
      .catch((err) => this.opts.onError?.(err))
      .finally(() => {
        this.inFlight = null;
        this.next();
      });
  }
}
