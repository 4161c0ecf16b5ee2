import { TRIAL_USER_MESSAGES } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { trialUserErrorText } from './trial-user-errors';

describe('trialUserErrorText', () => {
  it('ends a server sentence with one "!" (no ".!")', () => {
    expect(trialUserErrorText(TRIAL_USER_MESSAGES.alreadyOnTrial)).toBe(
      'Error: This user is already a user of this trial!',
    );
  });
  it('adds "!" to a message without punctuation', () => {
    expect(trialUserErrorText('Unauthorized')).toBe('Error: Unauthorized!');
  });
});
