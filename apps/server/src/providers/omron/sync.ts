/*
 * Omron (providers.md §2.4): measurements since an instant, oldest first,
 * paged by `truncated` (ask again from the last reading's instant). Each
 * reading carries its UTC instant, local wall-clock time and offset, so
 * nothing is derived from a zone. The cursor is the newest reading's instant;
 * the reading at the cursor comes back once more and is upserted unchanged.
 */
import { parseOffset } from '@trialwear/zone';
import type { ProviderSync, Reading, SyncIO } from '../../jobs/device-sync/types.js';
import { ReadRefused } from '../../jobs/device-sync/types.js';
import type { OmronMeasurement, OmronPage } from './readings.js';

/** Pages read at most per category and sync: bounded, never a loop without end. */
const MAX_PAGES = 20;
const DAY = 86_400_000;

const CATEGORIES = [
  {
    category: 'bloodPressure' as const,
    type: 'bloodpressure',
    fields: [
      ['systolic', 'systolic'],
      ['diastolic', 'diastolic'],
      ['pulse', 'pulse'],
    ] as const,
  },
  {
    category: 'weight' as const,
    type: 'weight',
    fields: [
      ['weight', 'weight'],
      ['bmi', 'bmi'],
      ['body_fat', 'bodyFat'],
    ] as const,
  },
];

function readings(
  m: OmronMeasurement,
  fields: ReadonlyArray<readonly [string, keyof OmronMeasurement]>,
  wanted: ReadonlySet<string>,
): Reading[] {
  const measuredAt = new Date(m.dateTime);
  const offset = parseOffset(m.dateTimeUtcOffset);
  if (Number.isNaN(measuredAt.getTime()) || offset === null) return [];
  const json = m.id === undefined ? null : { id: m.id };
  return fields.flatMap(([key, field]) => {
    const v = m[field];
    return wanted.has(key) && typeof v === 'number'
      ? [
          {
            metricKey: key,
            measuredAt,
            localDate: m.dateTimeLocal.slice(0, 10),
            localTime: m.dateTimeLocal.slice(11, 19),
            utcOffsetMinutes: offset,
            value: v,
            valueJson: json,
          },
        ]
      : [];
  });
}

export const omronSync: ProviderSync = {
  metrics: CATEGORIES.flatMap((c) => c.fields.map(([k]) => k)),
  async run(io: SyncIO, metrics) {
    for (const c of CATEGORIES) {
      const wanted = new Set<string>(c.fields.map(([k]) => k).filter((k) => metrics.includes(k)));
      if (wanted.size === 0) continue;
      const cursors = [...wanted].map(
        (k) => io.cursor(k).at?.getTime() ?? io.now.getTime() - io.backfillDays * DAY,
      );
      let since = new Date(Math.min(...cursors)).toISOString().replace(/\.\d{3}Z$/, 'Z');
      for (let page = 0; page < MAX_PAGES; page++) {
        let body: OmronPage;
        try {
          body = (
            await io.read({ resource: 'measurement', params: { since, type: c.type, sortOrder: 'asc' } })
          ).body as OmronPage;
        } catch (err) {
          if (!(err instanceof ReadRefused)) throw err;
          io.fail({ metrics: [...wanted], error: err.message });
          break;
        }
        const list = body.result?.[c.category] ?? [];
        const rows = list.flatMap((m) => readings(m, c.fields, wanted));
        const last = list[list.length - 1];
        await io.store({
          metrics: [...wanted],
          readings: rows,
          cursor: last ? { at: new Date(last.dateTime) } : {},
        });
        if (!body.result?.truncated || !last || last.dateTime === since) break;
        since = last.dateTime;
      }
    }
  },
};
