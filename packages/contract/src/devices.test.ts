import { describe, expect, it } from 'vitest';
import { LINK_PROVIDERS, PROVIDER_BRAND, PROVIDERS, providerOfLink } from './devices.js';

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
