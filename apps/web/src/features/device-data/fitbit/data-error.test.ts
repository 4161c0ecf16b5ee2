import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../../lib/api-client';
import { dataErrorText } from './data-error';

describe('Fitbit data errors', () => {
  it("a provider limit is the one sentence with the resume time; other failures keep the spec's texts", () => {
    const limited = new ApiRequestError(429, {
      message: 'Too Many Requests',
      displayToUser: true,
      user: { resumesAt: '2026-11-26T19:00:00.000Z' },
    } as never);
    expect(dataErrorText(limited)).toMatch(
      /^Fitbit's hourly limit for this participant is reached; data resumes at \d\d:\d\d$/,
    );
    expect(dataErrorText(new ApiRequestError(502, null))).toBe('Error: Fitbit request failed!');
  });
});
