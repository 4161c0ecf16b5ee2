/*
 * The Google Health data reader on the simulator over HTTP (no portal, no
 * database): `read` answers Google's own bodies, one per call it made, and
 * `toSeries` maps them to the series fixed in reader-series.digests.json.
 *
 * Those fingerprints were recorded while the legacy conversion still existed
 * (Google's answers → legacy Fitbit JSON → legacyToSeries): for every case
 * below the two gave deep-equal series (the equality test of commits d5cb7ed and 63dce03,
 * `READER_SERIES_DIGESTS=write`), so a fingerprint that changes is a series
 * that is no longer what a Google Health link answered before the direct
 * mapping. Recorded again on purpose once (READER_SERIES_DIGESTS=write):
 * the sleep paths, when sleep_stages' detail gained the stage intervals
 * (issue #24; parity.int.test.ts holds them equal to the legacy API's).
 * The cases: every allow-listed path kind Google serves, 16-day
 * ranges and days around DST changes (London, New York, Sydney) and a
 * half-hour zone east of UTC (Kolkata), and the activity levels listed when
 * Google refuses their roll-up (§7.6).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoogleTrackerBody } from '../../src/providers/fitbit/google-health/series/answered.js';
import digests from './reader-series.digests.json' with { type: 'json' };
import { activityLevelPaths, NO_LEVEL_ROLLUPS, readerPaths, ZONE_CASES } from './reader-series-cases.js';
import { caseKey, seriesDigest } from './reader-series-digest.js';
import { type SimReader, startSimReader } from './sim-reader.js';

const expected = digests as Record<string, string>;
const DIGESTS_FILE = fileURLToPath(new URL('./reader-series.digests.json', import.meta.url));
const NOW = '2026-11-20T12:00:00Z';

/**
 * Each path's read answers Google's bodies and its series are the recorded
 * ones. `refused`: the calls Google answered 400 that the read replaced with
 * others (listed in `request`, without a body).
 */
async function expectRecordedSeries(
  sim: SimReader,
  token: string,
  timeZone: string,
  paths: string[],
  { label = timeZone, refused = [] as string[] } = {},
) {
  for (const path of paths) {
    const query = { resource: 'tracker', params: { path } };
    const answer = await sim.read(token, path);
    const body = answer.body as GoogleTrackerBody;
    const made = answer.request.split(' ; ');
    // Google's own answers, one per call made and answered.
    const answered = body.calls.map((c) => c.request);
    expect(
      made.filter((x) => !answered.includes(x)),
      path,
    ).toEqual(refused.filter((x) => made.includes(x)));
    expect(answered, path).toEqual(made.filter((x) => !refused.includes(x)));
    for (const c of body.calls) {
      expect(c.request, path).toMatch(/^(GET|POST) \/v4\/users\/me\//);
      expect(JSON.stringify(c.body), path).not.toMatch(/"activities-|"dateTime"/);
    }
    const set = sim.reader.toSeries!(query, answer, timeZone);
    expect(set.series.length, path).toBeGreaterThan(0);
    for (const s of set.series) {
      expect(s.timeZone).toBe(timeZone);
      expect(s.source).toEqual({ provider: 'google_health', requests: answer.request.split(' ; ') });
    }
    if (WRITE) {
      // Recording (an intended change of a series, e.g. sleep's stage intervals): checked apart
      // (parity.int.test.ts holds the two APIs' series equal), then kept as the new fingerprint.
      expected[caseKey(label, path)] = seriesDigest(set);
      continue;
    }
    expect(expected[caseKey(label, path)], `${label} ${path}: a recorded case`).toBeDefined();
    expect(seriesDigest(set), `${label} ${path}`).toBe(expected[caseKey(label, path)]);
  }
}

/** `READER_SERIES_DIGESTS=write`: record the fingerprints instead of comparing them. */
const WRITE = process.env.READER_SERIES_DIGESTS === 'write';

describe('Google Health reader: Google bodies read, series as recorded', () => {
  let sim: SimReader;
  beforeAll(async () => {
    sim = await startSimReader(NOW);
  });
  afterAll(() => {
    if (WRITE) {
      const sorted = Object.fromEntries(Object.entries(expected).sort(([x], [y]) => (x < y ? -1 : 1)));
      fs.writeFileSync(DIGESTS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
    }
    return sim?.close();
  });

  for (const [i, z] of ZONE_CASES.entries())
    describe(z.timeZone, () => {
      let token = '';
      beforeAll(async () => {
        token = await sim.personIn(`p${i}.reader.test`, z.timeZone);
      });
      for (const day of z.days)
        it(`every path kind around ${day}`, async () => {
          await expectRecordedSeries(
            sim,
            token,
            z.timeZone,
            readerPaths(day, addDays(day, -10), addDays(day, 5)),
          );
        });
    });

  it('a DST day: every window of the local day once, a repeated hour at its first instant', async () => {
    const token = await sim.personIn('p1.reader.test', 'America/New_York');
    const points = async (path: string) =>
      sim.reader.toSeries!(
        { resource: 'tracker', params: { path } },
        await sim.read(token, path),
        'America/New_York',
      ).series[0]!.points!;
    // 2026-11-01: 25 hours, 01:00–01:59 twice; the 1500 minutes are 1440 wall-clock times.
    const back = await points('/activities/steps/date/2026-11-01/1d/1min.json');
    expect(back).toHaveLength(1440);
    expect(back.find((p) => p.time === '01:30:00')).toMatchObject({
      at: '2026-11-01T05:30:00.000Z',
      offsetMinutes: -240,
      date: '2026-11-01',
    });
    expect(back.find((p) => p.time === '02:00:00')).toMatchObject({
      at: '2026-11-01T07:00:00.000Z',
      offsetMinutes: -300,
    });
    // 2026-03-08: 23 hours, 02:00–02:59 skipped.
    const forward = await points('/activities/steps/date/2026-03-08/1d/15min.json');
    expect(forward).toHaveLength(92);
    expect(forward.some((p) => p.time.startsWith('02:'))).toBe(false);
    expect(forward.find((p) => p.time === '03:00:00')).toMatchObject({
      at: '2026-03-08T07:00:00.000Z',
      offsetMinutes: -240,
    });
  });

  it('activity series list every day with 0 where Google has none; body series null without a weighing', async () => {
    const token = await sim.personIn('p0.reader.test', 'Europe/London');
    const read = async (path: string) =>
      sim.reader.toSeries!(
        { resource: 'tracker', params: { path } },
        await sim.read(token, path),
        'Europe/London',
      ).series[0]!;
    const steps = await read('/activities/steps/date/2026-10-15/2026-10-30.json');
    expect(steps).toMatchObject({ metric: 'steps', unit: 'steps' });
    expect(steps.days!.map((d) => d.date)).toEqual(
      Array.from({ length: 16 }, (_, i) => addDays('2026-10-15', i)),
    );
    expect(steps.days!.every((d) => typeof d.value === 'number')).toBe(true);
    expect(steps.days!.some((d) => d.value === 0)).toBe(true);
    const sedentary = await read('/activities/minutesSedentary/date/2026-10-15/2026-10-30.json');
    // A day without activity data: sedentary all day (legacy Fitbit's count), where steps say 0.
    for (const d of steps.days!.filter((x) => x.value === 0))
      expect(sedentary.days!.find((x) => x.date === d.date)?.value).toBe(1440);
    const weight = await read('/body/weight/date/2026-10-15/2026-10-30.json');
    expect(weight).toMatchObject({ metric: 'weight', unit: 'kg' });
    expect(weight.days).toHaveLength(16);
    expect(weight.days!.some((d) => d.value === null)).toBe(true);
    expect(weight.days!.every((d) => d.value === null || d.value > 0)).toBe(true);
  });

  it('answers 400 unsupported for what Google lacks, and the profile its zone', async () => {
    const token = await sim.personIn('p3.reader.test', 'Asia/Kolkata');
    for (const path of [
      '/activities/list.json?beforeDate=2026-11-01&sort=desc&limit=20&offset=0',
      '/sleep/list.json?beforeDate=2026-11-01&sort=desc&limit=20&offset=0',
      '/foods/log/date/2026-11-01.json',
    ]) {
      const r = await sim.reader.read(token, { resource: 'tracker', params: { path } });
      expect(r, path).toMatchObject({ ok: false, status: 400, errorType: 'unsupported' });
    }
    const bad = await sim.reader.read(token, { resource: 'tracker', params: { path: '/devices.json' } });
    expect(bad).toMatchObject({ ok: false, status: 400, errorType: 'validation' });
    const profile = await sim.reader.read(token, { resource: 'profile', params: {} });
    expect(profile).toMatchObject({
      ok: true,
      data: { body: { user: { timezone: 'Asia/Kolkata', offsetFromUTCMillis: 19_800_000 } } },
    });
  });
});

describe('Google Health reader without activity-level roll-ups (§7.6: the list read instead)', () => {
  let sim: SimReader;
  beforeAll(async () => {
    sim = await startSimReader(NOW, { activityLevelRollUps: false });
  });
  afterAll(() => sim?.close());

  it('the recorded series from the intervals listed, around New York 2026-11-01', async () => {
    const token = await sim.personIn('q0.reader.test', 'America/New_York');
    const paths = activityLevelPaths('2026-11-01', '2026-10-22', '2026-11-06');
    await expectRecordedSeries(sim, token, 'America/New_York', paths, {
      label: NO_LEVEL_ROLLUPS,
      refused: ['POST /v4/users/me/dataTypes/activity-level/dataPoints:dailyRollUp'],
    });
    const answer = await sim.read(token, paths[0]!);
    expect(answer.request).toMatch(/GET \/v4\/users\/me\/dataTypes\/activity-level\/dataPoints\?/);
  });
});
