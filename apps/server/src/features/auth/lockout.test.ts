import { describe, expect, it } from 'vitest';
import { lockDuration, usernameKey } from './lockout.js';

const MIN = 60_000;

describe('lock duration (issue #9)', () => {
  it('15 minutes, doubling with each further lock, at most 24 hours', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 30].map((n) => lockDuration(n) / MIN)).toEqual([
      15, 30, 60, 120, 240, 480, 960, 1440, 1440, 1440,
    ]);
  });

  it('usernames are keyed case-insensitively, as they are unique', () => {
    expect(usernameKey(' Nora ')).toBe(usernameKey('nora'));
  });
});
