import type { Series } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import type { DataQuery } from '../types.js';
import { fitbitHealth } from './health.js';

const TZ = 'America/New_York';
/** A fake provider: `minutes` samples on each asked date (the first ones of the day), and the paths asked. */
function io(now: string, lastSyncAt: string | null, minutes: Record<string, number>) {
  const asked: string[] = [];
  return {
    asked,
    io: {
      now: new Date(now),
      lastSyncAt: lastSyncAt ? new Date(lastSyncAt) : null,
      zone: async () => TZ,
      async series(q: DataQuery) {
        asked.push(q.params.path!);
        const date = /date\/(\d{4}-\d{2}-\d{2})/.exec(q.params.path!)![1]!;
        const points = Array.from({ length: minutes[date] ?? 0 }, (_, m) => ({
          at: new Date(Date.parse(`${date}T05:00:00Z`) + m * 60_000).toISOString(),
          date,
          time: '00:00:00',
          offsetMinutes: -300,
          value: m % 50 === 0 ? null : 70,
        }));
        const s: Series = {
          metric: 'heart_rate_intraday',
          unit: 'bpm',
          timeZone: TZ,
          points,
          source: { provider: 'fitbit', requests: [] },
        };
        return { series: [s] };
      },
    },
  };
}

describe('Fitbit wear minutes', () => {
  it('the last 3 complete local days and today: minutes with a sample (a null value is no sample)', async () => {
    const f = io('2026-11-26T15:00:00Z', '2026-11-26T14:50:00Z', {
      '2026-11-23': 100,
      '2026-11-24': 0,
      '2026-11-25': 1000,
      '2026-11-26': 10,
    });
    expect(await fitbitHealth.days(f.io)).toEqual([
      { date: '2026-11-23', wearMinutes: 98 },
      { date: '2026-11-24', wearMinutes: 0 },
      { date: '2026-11-25', wearMinutes: 980 },
      { date: '2026-11-26', wearMinutes: 9 },
    ]);
    expect(f.asked).toEqual([
      '/activities/heart/date/2026-11-23/1d/1min.json',
      '/activities/heart/date/2026-11-24/1d/1min.json',
      '/activities/heart/date/2026-11-25/1d/1min.json',
      '/activities/heart/date/2026-11-26/1d/1min.json',
    ]);
  });

  it('a day that begins after the last sync is no data, and is not read; never synced: nothing is', async () => {
    // Last sync at 23:30 local on the 24th: the 25th and the 26th are no data.
    const f = io('2026-11-26T15:00:00Z', '2026-11-25T04:30:00Z', { '2026-11-23': 5, '2026-11-24': 5 });
    expect(await fitbitHealth.days(f.io)).toEqual([
      { date: '2026-11-23', wearMinutes: 4 },
      { date: '2026-11-24', wearMinutes: 4 },
      { date: '2026-11-25', wearMinutes: null },
      { date: '2026-11-26', wearMinutes: null },
    ]);
    expect(f.asked).toHaveLength(2);
    const never = io('2026-11-26T15:00:00Z', null, {});
    expect((await fitbitHealth.days(never.io)).map((d) => d.wearMinutes)).toEqual([null, null, null, null]);
    expect(never.asked).toEqual([]);
  });

  it("the last sync is the newest device's local lastSyncTime in the participant's zone", () => {
    const entry = (lastSyncTime: string | null) => ({
      device: 'fitness tracker' as const,
      deviceName: 'x',
      batteryLevel: 50,
      battery: 'High',
      deviceVersion: 'x',
      deviceType: 'TRACKER' as const,
      lastSyncTime,
      hasError: false,
      errorType: null,
    });
    expect(
      fitbitHealth.lastSyncAt(
        [entry('2026-11-26T09:50:00.000'), entry('2026-11-25T22:00:00.000'), entry(null)],
        TZ,
      ),
    ).toEqual(new Date('2026-11-26T14:50:00Z'));
    expect(fitbitHealth.lastSyncAt([entry(null)], TZ)).toBeNull();
    // A scale's newer sync does not make the tracker's days synced.
    const scale = { ...entry('2026-11-26T11:00:00.000'), deviceType: 'SCALE' as const };
    expect(fitbitHealth.lastSyncAt([entry('2026-11-25T22:00:00.000'), scale], TZ)).toEqual(
      new Date('2026-11-26T03:00:00Z'),
    );
  });
});
