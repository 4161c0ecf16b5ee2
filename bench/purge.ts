/*
 * Purge (issue #11, budget: deleting one day of readings takes no more than
 * 2× as long on a 10-million-row table as on a 1-million-row table). Starts an
 * embedded PostgreSQL in a temp DATA_DIR, migrated as the server migrates it,
 * with 50 participants whose team stores 4 metrics every 15 minutes: 19,200
 * readings a day. For each size, device_readings is filled with as many days
 * as make the size (52 days ≈ 1.0 M rows, 521 days ≈ 10.0 M rows) in time
 * order, as the sync writes them, with generate_series in SQL (foreign-key
 * triggers off for the fill only), then VACUUM ANALYZE and CHECKPOINT. The
 * metrics' retention is the table's span less one day, so the real purge
 * (`purgeExpiredReadings`, as the daily job runs it: targets, 10,000-row
 * batches, audit rows) removes exactly the oldest day; it runs
 * `BENCH_ROUNDS` (5) times, each one day later, and each run must delete
 * exactly one day of rows. The median of each size and their ratio are
 * printed, and the ratio of the first runs (the cache cold from the fill).
 *
 *   npx tsx --conditions=source bench/purge.ts
 */
import os from 'node:os';
import { purgeExpiredReadings } from '../apps/server/src/jobs/retention-purge/purge.js';
import { readingsDatabase } from './support/readings-db.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000000,10000000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PARTICIPANTS = 50;
const METRICS = ['steps', 'calories', 'distance', 'resting_heart_rate'];
const PER_DAY = 96; // one reading every 15 minutes
const DAY_ROWS = PARTICIPANTS * METRICS.length * PER_DAY;
const DAY_MS = 86_400_000;
const START = Date.parse('2024-01-01T00:00:00Z');
const FILL_DAYS = 10; // days per INSERT statement

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const load = os.loadavg();
  const bench = await readingsDatabase('purge', PARTICIPANTS);
  try {
    const { db, maintenance, teamId, participantIds } = bench;
    const device = await db
      .selectFrom('team_supported_devices as s')
      .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
      .select('s.id')
      .where('s.team_id', '=', teamId)
      .where('g.device_name', '=', 'Fitbit Sense')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('device_metric_settings')
      .values(
        METRICS.map((m) => ({
          team_id: teamId,
          team_supported_device_id: device.id,
          metric_key: m,
          metric_name: m,
          is_enabled: true,
          retention_days: 30,
        })),
      )
      .execute();
    console.log(
      `one day = ${DAY_ROWS.toLocaleString('en')} readings (${PARTICIPANTS} participants × ${METRICS.length} metrics × ${PER_DAY}); ${ROUNDS} rounds; ${os.cpus().length} CPUs, load average ${load.map((l) => l.toFixed(1)).join(' ')}`,
    );

    const results: Array<{ rows: number; ms: number[]; fillS: number }> = [];
    for (const size of SIZES) {
      const days = Math.round(size / DAY_ROWS);
      await maintenance('TRUNCATE device_readings');
      const f0 = performance.now();
      // The superuser's session skips the foreign-key triggers while it fills (the rows are valid by construction).
      await maintenance('SET session_replication_role = replica');
      for (let d0 = 0; d0 < days; d0 += FILL_DAYS) {
        await maintenance(
          `INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date, local_time, utc_offset_minutes, value)
           SELECT p.id, $1, m.key, t.at, (t.at AT TIME ZONE 'UTC')::date, (t.at AT TIME ZONE 'UTC')::time, 0, (p.id * 7 + q) % 500
           FROM generate_series($2::int, $3::int) AS d
           CROSS JOIN generate_series(0, ${PER_DAY - 1}) AS q
           CROSS JOIN LATERAL (SELECT $4::timestamptz + make_interval(days => d, mins => 15 * q) AS at) AS t
           CROSS JOIN unnest($5::int[]) AS p(id)
           CROSS JOIN unnest($6::text[]) AS m(key)`,
          [teamId, d0, Math.min(d0 + FILL_DAYS, days) - 1, new Date(START), participantIds, METRICS],
        );
      }
      await maintenance('SET session_replication_role = DEFAULT');
      await maintenance('VACUUM ANALYZE device_readings');
      await maintenance('CHECKPOINT');
      const fillS = (performance.now() - f0) / 1000;
      const rows = days * DAY_ROWS;
      // The retention spans the table less one day: the oldest day is past it.
      await db
        .updateTable('device_metric_settings')
        .set({ retention_days: days - 1 })
        .where('team_id', '=', teamId)
        .execute();
      const ms: number[] = [];
      for (let k = 0; k < ROUNDS; k++) {
        const now = new Date(START + (days + k) * DAY_MS);
        const t0 = performance.now();
        const r = await purgeExpiredReadings(db, now);
        ms.push(performance.now() - t0);
        if (r.total !== DAY_ROWS)
          throw new Error(`round ${k + 1} on ${rows} rows deleted ${r.total}, not one day (${DAY_ROWS})`);
      }
      results.push({ rows, ms, fillS });
      console.log(
        `${rows.toLocaleString('en').padStart(11)} rows (${days} days, filled in ${fillS.toFixed(0)} s): one day deleted in ${ms.map((m) => `${m.toFixed(0)} ms`).join(', ')}; median ${median(ms).toFixed(0)} ms`,
      );
    }
    if (results.length === 2) {
      const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
      const ratio = median(large.ms) / median(small.ms);
      const sizes = `${large.rows.toLocaleString('en')} / ${small.rows.toLocaleString('en')} rows`;
      console.log(`\n${sizes}: ${ratio.toFixed(2)}× (target ≤ 2×: ${ratio <= 2 ? 'met' : 'MISSED'})`);
      // The daily job meets a cold cache: the first run after the fill, alone, for what it shows.
      console.log(`${sizes}, first run of each: ${(large.ms[0]! / small.ms[0]!).toFixed(2)}×`);
    }
    console.log(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await bench.stop();
  }
}

await main();
