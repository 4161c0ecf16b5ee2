/**
 * Polls `check` every 50 ms until it holds; fails with `what` after `ms` (no fixed sleeps in tests).
 * `what` as a function is read only then: a child process's output as it is when the wait fails.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
