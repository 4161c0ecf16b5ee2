/** A clock a test moves by hand; pass `now` to createTestApp. */
export function testClock(start: string) {
  let at = new Date(start);
  return {
    now: () => at,
    advance: (ms: number) => {
      at = new Date(at.getTime() + ms);
    },
    /** Back (or on) to an instant: each test of a file sets the time it starts at. */
    set: (instant: string) => {
      at = new Date(instant);
    },
  };
}
