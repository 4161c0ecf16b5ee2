/*
 * A SeriesSet's fingerprint for the reader's fixed expectations: SHA-256 of
 * its JSON with sorted keys, provenance left out (the Google calls made are
 * checked apart). reader-series.digests.json holds the fingerprints of the
 * series the Google Health reader answered when they were proven equal to
 * the legacy conversion mapped as a legacy link (reader-series-cases.ts).
 */
import { createHash } from 'node:crypto';
import type { SeriesSet } from '../../src/providers/types.js';

const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, x]) => [k, canonical(x)]),
        )
      : v;

export const withoutSource = (s: SeriesSet): SeriesSet => ({
  ...s,
  series: s.series.map(({ source: _, ...rest }) => rest as SeriesSet['series'][number]),
});

export const seriesDigest = (s: SeriesSet) =>
  createHash('sha256')
    .update(JSON.stringify(canonical(withoutSource(s))))
    .digest('hex');

/** A case's key in the digest file. */
export const caseKey = (timeZone: string, path: string) => `${timeZone} ${path}`;
