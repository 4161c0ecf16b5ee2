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
import { readerPaths, ZONE_CASES } from './reader-series-cases.js';
import { caseKey, seriesDigest, withoutSource } from './reader-series-digest.js';
import { type SimReader, startSimReader } from './sim-reader.js';

/** READER_SERIES_DIGESTS=write: record the fingerprints of the series proven equal (reader-series.digests.json). */
const digests: Record<string, string> = {};

describe('Google Health reader: googleToSeries equals the legacy conversion mapped as legacy', () => {
  let sim: SimReader;
  beforeAll(async () => {
    sim = await startSimReader('2026-11-20T12:00:00Z');
  });
  afterAll(async () => {
    await sim?.close();
    if (process.env.READER_SERIES_DIGESTS === 'write')
      writeFileSync(
        new URL('./reader-series.digests.json', import.meta.url),
        `${JSON.stringify(digests, Object.keys(digests).sort(), 2)}\n`,
      );
  });

  for (const [i, z] of ZONE_CASES.entries())
    describe(z.timeZone, () => {
      let token = '';
      beforeAll(async () => {
        token = await sim.personIn(`p${i}.reader.test`, z.timeZone);
      });
      for (const day of z.days)
        it(`every path kind around ${day}`, async () => {
          for (const path of readerPaths(day, addDays(day, -10), addDays(day, 5))) {
            const query = { resource: 'tracker', params: { path } };
            const answer = await sim.read(token, path);
            const google = sim.reader.toSeries!(query, answer, z.timeZone);
            const body = await legacyAnswer(
              new GoogleHealthCalls(sim.base, token),
              path,
              parseFitbitResourcePath(path)!,
            );
            const legacy = legacyToSeries(
              query,
              { request: `/1/user/-${path}`, status: 200, headers: {}, body },
              z.timeZone,
            );
            expect(google.series.length, path).toBeGreaterThan(0);
            expect(withoutSource(google), path).toEqual(withoutSource(legacy));
            digests[caseKey(z.timeZone, path)] = seriesDigest(google);
            for (const s of google.series) {
              expect(s.source.provider).toBe('google_health');
              expect(s.source.requests).toEqual(answer.request.split(' ; '));
            }
          }
        });
    });
});
