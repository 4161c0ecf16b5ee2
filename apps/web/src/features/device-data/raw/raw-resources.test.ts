import { parseFitbitResourcePath } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { RAW_CHOICES, rawRequestFor } from './raw-resources';

const week = { start: '2026-11-01', end: '2026-11-07' };

describe('raw requests', () => {
  it('builds every Fitbit choice as a path the allow-list accepts', () => {
    for (const c of RAW_CHOICES.fitbit) {
      const r = rawRequestFor('fitbit', c.value, week);
      expect(r.ok, c.value).toBe(true);
      if (r.ok) expect(parseFitbitResourcePath(r.request.resource), c.value).not.toBeNull();
    }
    expect(rawRequestFor('fitbit', 'steps', week)).toEqual({
      ok: true,
      request: { resource: '/activities/steps/date/2026-11-01/2026-11-07.json' },
    });
  });

  it('refuses a range the provider does not take, before asking', () => {
    const r = rawRequestFor('fitbit', 'weight', { start: '2026-01-01', end: '2026-11-07' });
    expect(r.ok).toBe(false);
    expect(rawRequestFor('dexcom', 'egvs', { start: '2026-01-01', end: '2026-11-07' }).ok).toBe(false);
    expect(rawRequestFor('omron', 'weight', { start: '2026-11-08', end: '2026-11-07' }).ok).toBe(false);
    expect(rawRequestFor('fitbit', '/../../admin', week).ok).toBe(false);
  });

  it('gives Omron its since and Dexcom its UTC window', () => {
    expect(rawRequestFor('omron', 'bloodPressure', week)).toEqual({
      ok: true,
      request: { resource: 'bloodPressure', since: '2026-11-01' },
    });
    expect(rawRequestFor('dexcom', 'egvs', week)).toEqual({
      ok: true,
      request: { resource: 'egvs', startDate: '2026-11-01T00:00:00', endDate: '2026-11-07T23:59:59' },
    });
    expect(rawRequestFor('dexcom', 'devices', week)).toEqual({ ok: true, request: { resource: 'devices' } });
  });
});
