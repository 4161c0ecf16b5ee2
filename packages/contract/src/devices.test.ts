import { describe, expect, it } from 'vitest';
import { LINK_PROVIDERS, PROVIDER_BRAND, PROVIDERS, providerOfLink, scopeLabel } from './devices.js';

describe('link providers', () => {
  it('every link name maps to a provider; a Google Health link is a Fitbit link', () => {
    for (const name of LINK_PROVIDERS) expect(PROVIDERS).toContain(providerOfLink(name));
    expect(providerOfLink('google_health')).toBe('fitbit');
    expect(PROVIDER_BRAND[providerOfLink('google_health')!]).toBe('Fitbit');
  });

  it('a name the contract does not know has no provider', () => {
    expect(providerOfLink('garmin')).toBeUndefined();
    expect(providerOfLink('toString')).toBeUndefined();
  });
});

describe('scopes in words', () => {
  it("names each provider's scopes as a coordinator reads them, never an upper-cased URL", () => {
    expect(scopeLabel('heartrate')).toBe('Heart rate');
    expect(scopeLabel('https://www.googleapis.com/auth/googlehealth.sleep.readonly')).toBe('Sleep (read)');
    expect(scopeLabel('https://www.googleapis.com/auth/googlehealth.activity_and_fitness.readonly')).toBe(
      'Activity and fitness (read)',
    );
    expect(scopeLabel('bloodpressure')).toBe('Blood pressure');
    expect(scopeLabel('offline_access')).toBe('Access while the participant is away (refresh token)');
    expect(scopeLabel('https://www.googleapis.com/auth/userinfo.email')).toBe('userinfo.email');
    expect(scopeLabel('something_new')).toBe('something_new');
  });
});
