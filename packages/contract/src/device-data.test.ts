import { describe, expect, it } from 'vitest';
import { kgToLb, kmToMiles, parseFitbitResourcePath } from './device-data.js';

describe('unit conversions (core §9)', () => {
  it('kg → lb: ×2.20462, one decimal', () => {
    expect(kgToLb(72.4)).toBe(159.6); // 159.614…
    expect(kgToLb(81.4)).toBe(179.5); // 179.456… rounds up
    expect(kgToLb(100)).toBe(220.5); // 220.462
    expect(kgToLb(58.3)).toBe(128.5); // 128.529…
    expect(kgToLb(0)).toBe(0);
  });

  it('km → miles: ÷1.609, two decimals', () => {
    expect(kmToMiles(1.609)).toBe(1);
    expect(kmToMiles(7.32)).toBe(4.55); // 4.5494…
    expect(kmToMiles(10)).toBe(6.22); // 6.2150…
    expect(kmToMiles(3.36)).toBe(2.09); // 2.0882…
    expect(kmToMiles(0)).toBe(0);
  });
});

describe('tracker resource paths', () => {
  it('accepts the spec paths up to the provider maximum and names the provider path', () => {
    expect(parseFitbitResourcePath('/activities/steps/date/2024-01-01/2026-12-30.json')).toMatchObject({
      kind: 'activity-series',
      api: '/1/user/-/activities/steps/date/2024-01-01/2026-12-30.json',
      maxDays: 1095,
    });
    expect(parseFitbitResourcePath('/sleep/date/2026-01-01/2026-04-10.json')?.api).toBe(
      '/1.2/user/-/sleep/date/2026-01-01/2026-04-10.json',
    );
    expect(parseFitbitResourcePath('/activities/heart/date/2026-03-08/1d/1sec.json')?.kind).toBe(
      'heart-intraday',
    );
    expect(parseFitbitResourcePath('/temp/skin/date/2026-03-01/2026-03-30.json')).toMatchObject({
      kind: 'temp-skin',
      api: '/1/user/-/temp/skin/date/2026-03-01/2026-03-30.json',
      maxDays: 30,
    });
  });

  it('refuses unknown paths, impossible dates, reversed or too long ranges', () => {
    for (const p of [
      '/activities/steps/date/2024-01-01/2027-01-01.json', // 1097 days
      '/sleep/date/2026-01-01/2026-04-11.json', // 101 days
      '/body/log/weight/date/2026-01-01/2026-02-01.json', // 32 days
      '/temp/skin/date/2026-03-01/2026-03-31.json', // 31 days
      '/temp/core/date/2026-03-01/2026-03-02.json',
      '/activities/steps/date/2026-02-29/2026-03-01.json',
      '/activities/steps/date/2026-03-02/2026-03-01.json',
      '/activities/steps/date/2026-03-01/2026-03-02.json?x=1',
      '//evil.example/x',
      '/1/user/-/profile.json',
    ])
      expect(parseFitbitResourcePath(p), p).toBeNull();
  });
});
