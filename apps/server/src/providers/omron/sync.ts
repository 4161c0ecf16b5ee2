/*
 * Omron (providers.md §2.4): measurements since an instant, oldest first,
 * paged by `truncated` (ask again from the last reading's instant). Each
 * reading carries its UTC instant, local wall-clock time and offset, so
 * nothing is derived from a zone. The rows are the answer's series
 * (series.ts): each point with a number, value_json Omron's id. The cursor
 * is the newest reading's instant; the reading at the cursor comes back once
 * more and is upserted unchanged.
 */
import type { ProviderSync, Reading, SyncIO } from '../sync-types.js';
import { ReadRefused } from '../sync-types.js';
import type { DataQuery } from '../types.js';
import { omronPaging } from './readings.js';
import { OMRON_SERIES, type OmronDetail, omronSeries } from './series.js';

/** Pages read at most per category and sync: bounded, never a loop without end. */
const MAX_PAGES = 20;
const DAY = 86_400_000;

const CATEGORIES = Object.entries(OMRON_SERIES).map(([type, c]) => ({
  type,
  category: c.category,
  metrics: c.fields.map(([metric]) => metric as string),
}));

/** The rows of one answer: each point of a wanted metric that has a number (value_json: Omron's id). */
function readings(query: DataQuery, answer: Parameters<typeof omronSeries>[1], wanted: ReadonlySet<string>) {
  return omronSeries(query, answer, null).series.flatMap((s) =>
    wanted.has(s.metric)
      ? (s.points ?? []).flatMap((p): Reading[] => {
          if (p.value === null) return [];
          const d = p.detail as unknown as OmronDetail;
          return [
            {
              metricKey: s.metric,
              measuredAt: new Date(p.at),
              localDate: p.date,
              localTime: p.time,
              utcOffsetMinutes: p.offsetMinutes,
              value: p.value,
              valueJson: d.id === undefined ? null : { id: d.id },
            },
          ];
        })
      : [],
  );
}

export const omronSync: ProviderSync = {
  metrics: CATEGORIES.flatMap((c) => c.metrics),
  async run(io: SyncIO, metrics) {
    for (const c of CATEGORIES) {
      const wanted = new Set<string>(c.metrics.filter((k) => metrics.includes(k)));
      if (wanted.size === 0) continue;
      const cursors = [...wanted].map(
        (k) => io.cursor(k).at?.getTime() ?? io.now.getTime() - io.backfillDays * DAY,
      );
      let since = new Date(Math.min(...cursors)).toISOString().replace(/\.\d{3}Z$/, 'Z');
      for (let page = 0; page < MAX_PAGES; page++) {
        const query: DataQuery = {
          resource: 'measurement',
          params: { since, type: c.type, sortOrder: 'asc' },
        };
        let answer: Awaited<ReturnType<SyncIO['read']>>;
        try {
          answer = await io.read(query);
        } catch (err) {
          if (!(err instanceof ReadRefused)) throw err;
          io.fail({ metrics: [...wanted], error: err.message });
          break;
        }
        const { last, next } = omronPaging(answer, c.category, since);
        await io.store({
          metrics: [...wanted],
          readings: readings(query, answer, wanted),
          cursor: last ? { at: new Date(last) } : {},
        });
        if (next === null) break;
        since = next;
      }
    }
  },
};
