/*
 * The Google Health reader's direct mapping (googleToSeries of read's
 * Google bodies) against the former route: Google's answers converted to
 * the legacy Fitbit JSON (legacy-answers.ts) and that JSON mapped as a legacy
 * link's (legacyToSeries). For every allow-listed path kind Google serves,
 * ranges and days around DST changes (London, New York, Sydney) and a
 * half-hour zone east of UTC (Kolkata): the same series, value for value.
 * The provenance differs by design (the Google calls, not the legacy path).
 */
import { writeFileSync } from 'node:fs';
import { parseFitbitResourcePath } from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoogleHealthCalls } from '../../src/providers/fitbit/google-health/google-http.js';
import { legacyAnswer } from '../../src/providers/fitbit/google-health/legacy-answers.js';
import { legacyToSeries } from '../../src/providers/fitbit/legacy-series.js';
import { activityLevelPaths, readerPaths, ZONE_CASES } from './reader-series-cases.js';
import { caseKey, seriesDigest, withoutSource } from './reader-series-digest.js';
import { type SimReader, startSimReader } from './sim-reader.js';

/** READER_SERIES_DIGESTS=write: record the fingerprints of the series proven equal (reader-series.digests.json). */
const digests: Record<string, string> = {};

afterAll(() => {
  if (process.env.READER_SERIES_DIGESTS === 'write')
    writeFileSync(
      new URL('./reader-series.digests.json', import.meta.url),
      `${JSON.stringify(digests, Object.keys(digests).sort(), 2)}\n`,
    );
});

/** googleToSeries of the reader's answer equals the legacy conversion's series, path by path. */
async function expectSameSeries(
  sim: SimReader,
  token: string,
  timeZone: string,
  paths: string[],
  label: string = timeZone,
) {
  for (const path of paths) {
    const query = { resource: 'tracker', params: { path } };
    const answer = await sim.read(token, path);
    const google = sim.reader.toSeries!(query, answer, timeZone);
    const body = await legacyAnswer(
      new GoogleHealthCalls(sim.base, token),
      path,
      parseFitbitResourcePath(path)!,
    );
    const legacy = legacyToSeries(
      query,
      { request: `/1/user/-${path}`, status: 200, headers: {}, body },
      timeZone,
    );
    expect(google.series.length, path).toBeGreaterThan(0);
    expect(withoutSource(google), path).toEqual(withoutSource(legacy));
    for (const s of google.series) {
      expect(s.source.provider).toBe('google_health');
      expect(s.source.requests).toEqual(answer.request.split(' ; '));
    }
    digests[caseKey(label, path)] = seriesDigest(google);
  }
}

describe('Google Health reader: googleToSeries equals the legacy conversion mapped as legacy', () => {
  let sim: SimReader;
  beforeAll(async () => {
    sim = await startSimReader('2026-11-20T12:00:00Z');
  });
  afterAll(() => sim?.close());

  for (const [i, z] of ZONE_CASES.entries())
    describe(z.timeZone, () => {
      let token = '';
      beforeAll(async () => {
        token = await sim.personIn(`p${i}.reader.test`, z.timeZone);
      });
      for (const day of z.days)
        it(`every path kind around ${day}`, async () => {
          await expectSameSeries(
            sim,
            token,
            z.timeZone,
            readerPaths(day, addDays(day, -10), addDays(day, 5)),
          );
        });
    });
});

export const NO_LEVEL_ROLLUPS = 'America/New_York, no activity-level roll-ups';

describe('Google Health reader without activity-level roll-ups (§7.6: the list read instead)', () => {
  let sim: SimReader;
  beforeAll(async () => {
    sim = await startSimReader('2026-11-20T12:00:00Z', { activityLevelRollUps: false });
  });
  afterAll(() => sim?.close());

  it('the same series from the intervals listed, around New York 2026-11-01', async () => {
    const token = await sim.personIn('q0.reader.test', 'America/New_York');
    const paths = activityLevelPaths('2026-11-01', '2026-10-22', '2026-11-06');
    await expectSameSeries(sim, token, 'America/New_York', paths, NO_LEVEL_ROLLUPS);
    const answer = await sim.read(token, paths[0]!);
    expect(answer.request).toMatch(/GET \/v4\/users\/me\/dataTypes\/activity-level\/dataPoints\?/);
  });
});
