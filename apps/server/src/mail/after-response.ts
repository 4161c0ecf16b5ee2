/*
 * Work done after the answer has gone out: mail (and the rows it needs) whose
 * presence or absence must not show in how long a call takes, e.g. a reset
 * link for a known address but nothing for an unknown one, or the owner's
 * mail when an account locks. The caller answers at once; the work runs on
 * the next turn of the event loop. A failure cannot change the answer any
 * more, so it is logged. The app waits for pending work when it closes (the
 * auth routes add the hook), and tests wait with settleAfterResponse().
 */
const pending = new Set<Promise<void>>();

export function afterResponse(label: string, work: () => Promise<unknown>): void {
  const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .then(
      () => {},
      (err: unknown) => {
        console.error(`[trialwear] ${label} failed after the answer: ${(err as Error)?.message ?? err}`);
      },
    )
    .finally(() => pending.delete(run));
  pending.add(run);
}

/** Resolves when every piece of work started so far (and any it started) has finished. */
export async function settleAfterResponse(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
