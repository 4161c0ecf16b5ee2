import { PROVIDER_LIMIT_MESSAGES } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../../lib/api-client';
import { latestLimit, providerLimitOf, providerLimitText } from './data-error';

const limited = (resumesAt: unknown) =>
  new ApiRequestError(429, {
    message: 'Too Many Requests',
    displayToUser: true,
    reason: 'RateLimited',
    location: 'GET /api/x',
    errors: [],
    user: { resumesAt },
  } as never);

describe('the provider limit message (issue #21)', () => {
  it("says once when data resumes, on the viewer's clock", () => {
    const limit = providerLimitOf(limited('2026-11-26T19:00:00.000Z'));
    expect(limit).toEqual({ resumesAt: '2026-11-26T19:00:00.000Z' });
    expect(providerLimitText(limit!, 'Fitbit', 'UTC')).toBe(
      "Fitbit's hourly limit for this participant is reached; data resumes at 19:00",
    );
    // The same instant in a viewer's zone (Berlin: UTC+1 in November; New York: UTC−5).
    expect(providerLimitText(limit!, 'Fitbit', 'Europe/Berlin')).toContain('resumes at 20:00');
    expect(providerLimitText(limit!, 'Fitbit', 'America/New_York')).toContain('resumes at 14:00');
  });

  it('without a resume time (a provider 429 without Retry-After) still one sentence', () => {
    const limit = providerLimitOf(limited(undefined));
    expect(limit).toEqual({ resumesAt: null });
    expect(providerLimitText(limit!, 'Fitbit')).toBe(PROVIDER_LIMIT_MESSAGES.dataPageNoTime('Fitbit'));
  });

  it('is only for 429s; other failures keep their texts', () => {
    expect(providerLimitOf(new ApiRequestError(502, null))).toBeNull();
    expect(providerLimitOf(new Error('x'))).toBeNull();
  });

  it('several refused charts: the page waits for the latest resume time', () => {
    expect(latestLimit([])).toBeNull();
    expect(latestLimit([{ resumesAt: null }])).toEqual({ resumesAt: null });
    expect(
      latestLimit([
        { resumesAt: '2026-11-26T19:00:00.000Z' },
        { resumesAt: null },
        { resumesAt: '2026-11-26T20:00:00.000Z' },
      ]),
    ).toEqual({ resumesAt: '2026-11-26T20:00:00.000Z' });
  });

  it('the sync and export texts', () => {
    expect(PROVIDER_LIMIT_MESSAGES.sync('19:00')).toBe("waiting for the provider's limit until 19:00");
    expect(PROVIDER_LIMIT_MESSAGES.export('Fitbit', '19:00')).toBe(
      "waiting for Fitbit's hourly limit (resumes 19:00)",
    );
  });
});
