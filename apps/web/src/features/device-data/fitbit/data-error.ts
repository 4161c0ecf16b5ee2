import { DATA_MESSAGES } from '@trialwear/contract';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';

/** Core §8: only displayable server messages; a provider's 429 as 'Too Many Requests'. */
export function dataErrorText(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 429) return DATA_MESSAGES.tooManyRequests;
  return displayableMessage(err, DATA_MESSAGES.fitbitRequestFailed);
}
