/** The simulators' clock: real time plus an offset that tests can set (control API). */
export class SimClock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  set(to: Date) {
    this.offsetMs = to.getTime() - Date.now();
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
  reset() {
    this.offsetMs = 0;
  }
}
