import { DATA_MESSAGES } from '@trialwear/contract';
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
