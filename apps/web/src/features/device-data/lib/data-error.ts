import { clockTime, DATA_MESSAGES, PROVIDER_LIMIT_MESSAGES } from '@trialwear/contract';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';

/**
 * The text a data page shows for a failed call (core §8): the server's
 * message when it is meant for people, 'Too Many Requests' for the
 * provider's 429 passed on, else the page's own failure text.
 */
export function dataErrorText(err: unknown, fallback: string): string {
  if (err instanceof ApiRequestError && err.status === 429 && !err.body?.displayToUser)
    return DATA_MESSAGES.tooManyRequests;
  return displayableMessage(err, fallback);
}

/** The server's 'Could not find any data!' (core §8): an empty window, which an overview shows as 'No data to display'. */
export const isNoData = (err: unknown) =>
  err instanceof ApiRequestError && err.status === 404 && err.body?.message === DATA_MESSAGES.noData;

/**
 * A 429 for the provider's limit (issue #21): the device's hourly calls for
 * pages are spent, or the provider refused; `resumesAt` is when calls resume
 * (the server's `user.resumesAt`), null when the provider did not say.
 */
export function providerLimitOf(err: unknown): { resumesAt: string | null } | null {
  if (!(err instanceof ApiRequestError) || err.status !== 429) return null;
  const at = (err.body?.user as { resumesAt?: unknown } | null | undefined)?.resumesAt;
  return { resumesAt: typeof at === 'string' && Number.isFinite(Date.parse(at)) ? at : null };
}

/**
 * The one message a page shows for a provider limit, with the resume time on
 * the viewer's clock (`timeZone`: the browser's own unless given).
 */
export function providerLimitText(
  limit: { resumesAt: string | null },
  brand: string,
  timeZone?: string,
): string {
  return limit.resumesAt
    ? PROVIDER_LIMIT_MESSAGES.dataPage(brand, clockTime(limit.resumesAt, timeZone))
    : PROVIDER_LIMIT_MESSAGES.dataPageNoTime(brand);
}

/** The latest resume time of several limits (the page waits for the last of them). */
export function latestLimit(
  limits: Array<{ resumesAt: string | null }>,
): { resumesAt: string | null } | null {
  if (limits.length === 0) return null;
  const known = limits.map((l) => l.resumesAt).filter((x): x is string => x !== null);
  if (known.length === 0) return { resumesAt: null };
  return { resumesAt: known.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b)) };
}
