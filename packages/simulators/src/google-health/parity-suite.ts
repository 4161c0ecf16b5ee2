/*
 * The setup the parity files (google-health-parity-*.test.ts) share: the
 * 30 days around New York's DST change, one simulator per test file with a
 * linked New York person (the same person as the legacy Fitbit user), and
 * the dailyRollUp reader. `sim`, `token`, `legacy` and `healthUserId` are ES
 * live bindings: the hooks of `useParitySuite` assign them, the tests read
 * them.
 */
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, expect } from 'vitest';
import { fitbitUserId, fitbitUserTimezone } from '../fitbit/fitbit-data.js';
import { api, gdate, type Json, LEGACY_CLIENT, link, type Sim, startSim } from './test-kit.js';

/** A consent state whose person lives in a zone. */
export function stateIn(tz: string, skip = 0) {
  let found = 0;
  for (let i = 0; ; i++)
    if (fitbitUserTimezone(fitbitUserId(`${LEGACY_CLIENT}:p${i}`)).tz === tz && found++ === skip)
      return `p${i}.n.m`;
}
export const dateOf = (g: { year: number; month: number; day: number }) =>
  `${g.year}-${String(g.month).padStart(2, '0')}-${String(g.day).padStart(2, '0')}`;
export const civilText = (c: { date: Json; time?: Json }) =>
  `${dateOf(c.date)}T${String(c.time?.hours ?? 0).padStart(2, '0')}:${String(c.time?.minutes ?? 0).padStart(2, '0')}:${String(c.time?.seconds ?? 0).padStart(2, '0')}`;

// New York leaves summer time on 2026-11-01: the 30 days straddle it.
export const FIRST = '2026-10-15';
export const DAYS = Array.from({ length: 30 }, (_, i) => addDays(FIRST, i));
export const LAST = DAYS[DAYS.length - 1]!;

export let sim: Sim;
export let token = '';
export let legacy = '';
export let healthUserId = '';

/** Registers the file's hooks: call it at the top of its describe. */
export function useParitySuite() {
  beforeAll(async () => {
    sim = await startSim();
    sim.clock.set(new Date('2026-11-20T12:00:00Z'));
    const t = await link(sim, stateIn('America/New_York')!);
    token = t.access_token;
    const id = await api(sim, token, '/v4/users/me/identity');
    legacy = id.body.legacyUserId;
    healthUserId = id.body.healthUserId;
    expect(fitbitUserTimezone(legacy).tz).toBe('America/New_York');
  });
  afterAll(() => sim.close());
}

/** dailyRollUp over the 30 days in 14-day chunks: date → the type's value object. */
export async function daily(type: string): Promise<Map<string, Json>> {
  const out = new Map<string, Json>();
  for (let from = FIRST; from <= LAST; from = addDays(from, 14)) {
    const to = [addDays(from, 14), addDays(LAST, 1)].sort()[0]!;
    const r = await api(sim, token, `/v4/users/me/dataTypes/${type}/dataPoints:dailyRollUp`, {
      range: { start: { date: gdate(from) }, end: { date: gdate(to) } },
      windowSizeDays: 1,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const p of r.body.rollupDataPoints) {
      expect(dateOf(p.civilEndTime.date)).toBe(addDays(dateOf(p.civilStartTime.date), 1));
      const key = Object.keys(p).find((k) => !k.startsWith('civil'));
      out.set(dateOf(p.civilStartTime.date), key ? p[key] : undefined);
    }
  }
  expect([...out.keys()]).toEqual(DAYS);
  return out;
}

export const dateFilter = (snake: string) =>
  `${snake}.date >= "${FIRST}" AND ${snake}.date < "${addDays(LAST, 1)}"`;
