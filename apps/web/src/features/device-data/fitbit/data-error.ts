import { DATA_MESSAGES } from '@trialwear/contract';
import { displayableMessage } from '../../../lib/api-client';
import { providerLimitOf, providerLimitText } from '../lib/data-error';

/**
 * Core §8: only displayable server messages; a provider limit (429) as the
 * one sentence with its resume time (issue #21) instead of 'Too Many Requests'.
 */
export function dataErrorText(err: unknown): string {
  const limit = providerLimitOf(err);
  if (limit) return providerLimitText(limit, 'Fitbit');
  return displayableMessage(err, DATA_MESSAGES.fitbitRequestFailed);
}
