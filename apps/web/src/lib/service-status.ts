/*
 * Whether the portal can reach its database (issue 27). While the server
 * answers 503 ServiceUnavailable, one banner says so (service-unavailable-
 * banner.tsx) instead of an error in every widget: reads wait here until the
 * portal is ready again and then run, writes fail at once with the message.
 * Readiness is probed at /api/ready (which never looks up the session), at the
 * interval the server's Retry-After asks for.
 */
import { SERVICE_UNAVAILABLE } from '@trialwear/contract';

type Listener = () => void;

export interface ServiceStatus {
  isUnavailable(): boolean;
  subscribe(listener: Listener): () => void;
  /** A 503 ServiceUnavailable was answered; retryAfterSeconds from its header. */
  markUnavailable(retryAfterSeconds?: number): void;
  /** Resolves once /api/ready answers 200 (at once if the service is available). */
  whenAvailable(): Promise<void>;
}

export function createServiceStatus(
  probe: () => Promise<boolean>,
  schedule: (fn: () => void, ms: number) => void = (fn, ms) => setTimeout(fn, ms),
): ServiceStatus {
  let unavailable = false;
  let probing = false;
  let intervalMs = SERVICE_UNAVAILABLE.retryAfterSeconds * 1000;
  const listeners = new Set<Listener>();
  let waiters: Array<() => void> = [];

  const notify = () => {
    for (const l of listeners) l();
  };
  const becameAvailable = () => {
    unavailable = false;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
    notify();
  };
  const probeLater = () => {
    if (probing) return;
    probing = true;
    schedule(async () => {
      probing = false;
      const ok = await probe().catch(() => false);
      if (ok) becameAvailable();
      else if (unavailable) probeLater();
    }, intervalMs);
  };

  return {
    isUnavailable: () => unavailable,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    markUnavailable(retryAfterSeconds) {
      if (retryAfterSeconds && retryAfterSeconds > 0) intervalMs = Math.min(retryAfterSeconds, 30) * 1000;
      if (!unavailable) {
        unavailable = true;
        notify();
      }
      probeLater();
    },
    whenAvailable() {
      if (!unavailable) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

/** The SPA's one instance. */
export const serviceStatus = createServiceStatus(() =>
  fetch('/api/ready', { headers: { accept: 'application/json' } }).then(
    (r) => r.ok,
    () => false,
  ),
);
