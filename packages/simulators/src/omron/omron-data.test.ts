/* The Omron generator's own rules: every reading of a user has an instant of its own. */
import { addDays } from '@trialwear/zone';
import { describe, expect, it } from 'vitest';
import { omronDay } from './omron-data.js';

describe('Omron generator', () => {
  it(
    'no two blood-pressure readings of a user share an instant (the portal keeps one reading per instant)',
    { timeout: 20_000 },
    () => {
      // 60 users × a year: the morning's two readings used to fall on one minute now and then
      // (e.g. user 5d45fec0212f680178934fbb86ad73db on 2027-02-18).
      // One expect at the end: an expect per reading cost more than generating them (36,000).
      let readings = 0;
      const shared: string[] = [];
      for (let u = 0; u < 60; u++) {
        const user = u === 0 ? '5d45fec0212f680178934fbb86ad73db' : `user-${u}`;
        const seen = new Set<string>();
        for (let day = '2026-11-27'; day < '2027-11-27'; day = addDays(day, 1)) {
          for (const r of omronDay(user, day).bloodPressure) {
            if (seen.has(r.dateTime)) shared.push(`${user} ${r.dateTime}`);
            seen.add(r.dateTime);
            readings += 1;
          }
        }
      }
      expect(shared).toEqual([]);
      expect(readings).toBeGreaterThan(30_000);
    },
  );
});
