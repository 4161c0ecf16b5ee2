/*
 * Minute-level data at study scale (issue #24, decision 039): ingest,
 * storage, queries and purge of intraday minutes stored as day rows
 * (intraday_days), each against its anchor in the same run.
 *
 * Setup (support/readings-db.ts): an embedded PostgreSQL in a temp DATA_DIR,
 * migrated as the server migrates it, `BENCH_PARTICIPANTS` (200)
 * participants.
 *
 * 1. Ingest and storage: `BENCH_DAYS` (7) days × 1,440 minutes × 2 metrics
 *    (heart rate, steps) per participant, loaded into emptied tables by
 *    - COPY: `COPY device_readings FROM STDIN` of the same minutes as rows
 *      (the row-per-reading table as it was: its keys, foreign keys, indexes
 *      and triggers), the anchor;
 *    - write path: `upsertReadings` (the sync's write path) once per
 *      participant, metric and day (1,440 readings, what one intraday
 *      fetch stores), which routes them to intraday_days.
 *    Rounds alternate; each load is checked (rows, or samples, equal the
 *    minutes generated). Storage: table + TOAST + indexes per minute, for
 *    each, after the load and a VACUUM.
 * 2. Query, on a store of `BENCH_STORE_MINUTES` (52 M) minutes filled in SQL
 *    (1,000 participants × 2 metrics × 18 days: 9 in January, 9 in
 *    February) plus 90 days of daily steps per participant: p95 of one
 *    participant's one-day 1-minute heart rate (storedReadings: the
 *    intraday_readings view) and of 90 days of daily steps, 300 random
 *    queries each.
 * 3. Purge on that store: the retention purge when January has wholly
 *    expired (a partition drop), then the daily purge of one February day,
 *    before and after the store grows by another 9 days of March (the
 *    daily cost must not grow with the store).
 *
 *   npx tsx --conditions=source bench/intraday.ts
 */
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { dayPoints } from '../apps/server/src/features/device-data/stored-intraday.js';
import {
  type ReadingRow,
  storedReadings,
  upsertReadings,
} from '../apps/server/src/features/readings/repo.js';
import { purgeExpiredReadings } from '../apps/server/src/jobs/retention-purge/purge.js';
import { readingsDatabase } from './support/readings-db.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 200);
const DAYS = Number(process.env.BENCH_DAYS ?? 7);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STORE_PARTICIPANTS = Number(process.env.BENCH_STORE_PARTICIPANTS ?? 1000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'ingest,store').split(','));
const METRICS = ['heart_rate_intraday', 'steps_intraday'] as const;
const OFFSET_MIN = -300; // UTC−5, no DST in the windows
const START = Date.parse('2026-01-05T05:00:00Z'); // local midnight at UTC−5

const pad = (n: number) => String(n).padStart(2, '0');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en');
const loadAvg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** A small seeded PRNG (mulberry32): the same minutes in every round. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Heart rate as a tracker reports it: a random walk around a daytime or night level, whole bpm. */
function heartAt(rand: () => number, last: number, minute: number) {
  const level = minute < 420 || minute > 1380 ? 58 : 76;
  return Math.round(Math.min(180, Math.max(40, last + (level - last) * 0.1 + (rand() - 0.5) * 8)));
}

/** Steps per minute: mostly none, walks of a few minutes at 60–120 steps during the day. */
function stepsAt(rand: () => number, minute: number) {
  if (minute < 420 || minute > 1380) return 0;
  return rand() < 0.15 ? Math.round(60 + rand() * 60) : rand() < 0.2 ? Math.round(rand() * 30) : 0;
}

function generate(teamId: number, participantIds: number[]): ReadingRow[][] {
  // One array per participant, metric and day: what one intraday fetch of the sync stores.
  const batches: ReadingRow[][] = [];
  for (const pid of participantIds)
    for (const metric of METRICS)
      for (let d = 0; d < DAYS; d++) {
        const day: ReadingRow[] = [];
        const rand = prng(pid * 1000 + d * 10 + (metric === 'steps_intraday' ? 1 : 0));
        let hr = 60;
        const localDate = new Date(START + d * 86_400_000 + OFFSET_MIN * 60_000).toISOString().slice(0, 10);
        for (let m = 0; m < 1440; m++) {
          // Heart rate walks from the minute before; steps are drawn per minute.
          if (metric !== 'steps_intraday') hr = heartAt(rand, hr, m);
          day.push({
            participant_id: pid,
            team_id: teamId,
            metric_key: metric,
            measured_at: new Date(START + (d * 1440 + m) * 60_000),
            local_date: localDate,
            local_time: `${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`,
            utc_offset_minutes: OFFSET_MIN,
            value: metric === 'steps_intraday' ? stepsAt(rand, m) : hr,
          });
        }
        batches.push(day);
      }
  return batches;
}

/** COPY text: tab-separated, \N for NULL. */
function* copyText(batches: ReadingRow[][]) {
  for (const rows of batches) {
    let s = '';
    for (const r of rows)
      s += `${r.participant_id}\t${r.team_id}\t${r.metric_key}\t${r.measured_at.toISOString()}\t${r.local_date}\t${r.local_time}\t${r.utc_offset_minutes}\t${r.value}\n`;
    yield s;
  }
}

async function ingestAndStorage() {
  const bench = await readingsDatabase('intraday-ingest', PARTICIPANTS);
  try {
    const { db, pool, maintenance } = bench;
    const batches = generate(bench.teamId, bench.participantIds);
    const minutes = batches.length * 1440;
    const one = async (q: string) => Number((await pool.query(q)).rows[0].n);
    const reset = async () => {
      await maintenance('TRUNCATE device_readings, intraday_days');
      await maintenance('CHECKPOINT');
    };
    const sizes: Record<string, number> = {};
    const cases: Record<string, { run: () => Promise<void>; check: () => Promise<number>; size: string }> = {
      'COPY into the row-per-reading table': {
        run: async () => {
          const client = await pool.connect();
          try {
            const stream = client.query(
              copyFrom(
                'COPY device_readings (participant_id, team_id, metric_key, measured_at, local_date, local_time, utc_offset_minutes, value) FROM STDIN',
              ),
            );
            await pipeline(Readable.from(copyText(batches)), stream);
          } finally {
            client.release();
          }
        },
        check: () => one('SELECT count(*)::bigint AS n FROM device_readings'),
        size: "SELECT pg_total_relation_size('device_readings') AS n",
      },
      'write path (day rows), 1,440 a call': {
        run: async () => {
          for (const day of batches) await upsertReadings(db, day);
        },
        check: () => one('SELECT coalesce(sum(value_count), 0)::bigint AS n FROM intraday_days'),
        size: "SELECT sum(pg_total_relation_size(relid))::bigint AS n FROM pg_partition_tree('intraday_days')",
      },
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    console.log(
      `\n## ingest and storage: ${fmt(minutes)} minutes (${PARTICIPANTS} participants × ${DAYS} days × 1,440 × 2 metrics), ${ROUNDS} rounds, ${os.cpus().length} CPUs, load ${loadAvg()}`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      const names = Object.keys(cases);
      if (round % 2) names.reverse();
      for (const name of names) {
        await reset();
        const t0 = performance.now();
        await cases[name]!.run();
        times[name]!.push(performance.now() - t0);
        const n = await cases[name]!.check();
        if (n !== minutes) throw new Error(`${name}: ${n} minutes stored, not ${minutes}`);
        await maintenance(name.startsWith('COPY') ? 'VACUUM device_readings' : 'VACUUM intraday_days');
        sizes[name] = await one(cases[name]!.size);
      }
      console.log(`round ${round + 1} done (load ${loadAvg()})`);
    }
    const copyRate = minutes / (median(times['COPY into the row-per-reading table']!) / 1000);
    console.log('\ncase                                      median     minutes/s  ×COPY   bytes/minute');
    for (const [name, ts] of Object.entries(times)) {
      const rate = minutes / (median(ts) / 1000);
      console.log(
        `${name.padEnd(40)} ${`${(median(ts) / 1000).toFixed(2)} s`.padStart(8)} ${fmt(rate).padStart(12)}   ${(rate / copyRate).toFixed(2)}   ${(sizes[name]! / minutes).toFixed(1)}`,
      );
    }
    const perMinute = sizes['write path (day rows), 1,440 a call']! / minutes;
    // A study-year: 1,000 participants × 365 days × 1,440 minutes × 2 metrics.
    const yearMinutes = 1000 * 365 * 1440 * 2;
    console.log(
      `study-year (1,000 × 365 × 1,440 × 2 = ${fmt(yearMinutes)} minutes): ${((perMinute * yearMinutes) / 1e9).toFixed(1)} GB as day rows, ${(((sizes['COPY into the row-per-reading table']! / minutes) * yearMinutes) / 1e9).toFixed(0)} GB as rows`,
    );
  } finally {
    await bench.stop();
  }
}

async function storeQueriesAndPurge() {
  const bench = await readingsDatabase('intraday-store', STORE_PARTICIPANTS);
  try {
    const { db, pool, maintenance, teamId, participantIds } = bench;
    const fillDays = async (first: string, days: number) => {
      // Day rows straight in SQL (the write path is measured above): a sample a minute, UTC days.
      for (const metric of METRICS)
        await maintenance(
          `INSERT INTO intraday_days (participant_id, team_id, metric_key, local_date, start_at, step_seconds,
             utc_offset_minutes, samples, value_count, worn_count, newest_at, newest_offset_minutes, provider)
           SELECT p.id, p.team_id, $1, d::date, d, 60, 0,
             (SELECT array_agg(round(50 + random() * 60)::float8 ORDER BY i) FROM generate_series(0, 1439) i),
             1440, 1440, d + interval '1439 minutes', 0, 'fitbit'
           FROM participants p, generate_series($2::date, $2::date + ($3::int - 1), interval '1 day') d
           WHERE p.team_id = $4`,
          [metric, first, days, teamId],
        );
    };
    const f0 = performance.now();
    await pool.query("SELECT intraday_ensure_partitions('2027-01-01', '2027-03-31')");
    await fillDays('2027-01-20', 9);
    await fillDays('2027-02-10', 9);
    // 90 days of daily steps per participant, in the readings table.
    await maintenance(
      `INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date, local_time,
         utc_offset_minutes, value, provider)
       SELECT p.id, p.team_id, 'steps', d, d::date, '00:00', 0, (p.id * 31 + extract(doy FROM d)::int * 17) % 15000, 'fitbit'
       FROM participants p, generate_series('2026-11-20'::date, '2027-02-17'::date, interval '1 day') d
       WHERE p.team_id = $1`,
      [teamId],
    );
    await maintenance('VACUUM ANALYZE');
    await maintenance('CHECKPOINT');
    const minutes = Number(
      (await pool.query('SELECT sum(value_count)::bigint AS n FROM intraday_days')).rows[0].n,
    );
    console.log(
      `\n## store: ${fmt(minutes)} minutes in ${fmt(minutes / 1440)} day rows, filled in ${((performance.now() - f0) / 1000).toFixed(0)} s (load ${loadAvg()})`,
    );

    const pick = (xs: readonly number[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const oneDay = ['2027-01-24', '2027-02-12', '2027-02-15'];
    const timed = async (name: string, q: () => Promise<number>, want: number) => {
      const ms: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
        const t0 = performance.now();
        const n = await q();
        ms.push(performance.now() - t0);
        if (n !== want) throw new Error(`${name}: ${n} rows, not ${want}`);
      }
      console.log(
        `${name.padEnd(52)} p50 ${median(ms).toFixed(2)} ms  p95 ${p95(ms).toFixed(2)} ms  (budget p95 < 20 ms: ${p95(ms) < 20 ? 'met' : 'MISSED'})`,
      );
    };
    await timed(
      "one participant's one day of 1-minute heart rate",
      async () => {
        const d = oneDay[Math.floor(Math.random() * oneDay.length)]!;
        return (await storedReadings(db, pick(participantIds), 'heart_rate_intraday', { from: d, to: d }))
          .length;
      },
      1440,
    );
    await timed(
      'the same as the one-day page reads it (the day row)',
      async () => {
        const d = oneDay[Math.floor(Math.random() * oneDay.length)]!;
        const day = await db
          .selectFrom('intraday_days')
          .select([
            'start_at',
            'step_seconds',
            'utc_offset_minutes',
            'offset_shifts',
            'samples',
            'fetched_at',
          ])
          .where('participant_id', '=', pick(participantIds))
          .where('metric_key', '=', 'heart_rate_intraday')
          .where('local_date', '=', d)
          .executeTakeFirstOrThrow();
        return dayPoints({ ...day, cursor_date: null }, { date: d, window: null }).length;
      },
      1440,
    );
    await timed(
      "one participant's 90 days of daily steps",
      async () =>
        (await storedReadings(db, pick(participantIds), 'steps', { from: '2026-11-20', to: '2027-02-17' }))
          .length,
      90,
    );

    // Purge: January wholly expired (retention 30 days: cutoff 2027-02-03).
    const purge = async (now: string) => {
      const t0 = performance.now();
      const r = await purgeExpiredReadings(db, new Date(now));
      return { ms: performance.now() - t0, total: r.total };
    };
    const janMinutes = 9 * 2 * STORE_PARTICIPANTS * 1440;
    const drop = await purge('2027-03-05T00:00:00Z');
    console.log(
      `purge of expired January (${fmt(drop.total)} minutes, a partition drop): ${drop.ms.toFixed(0)} ms (budget < 1 s: ${drop.ms < 1000 ? 'met' : 'MISSED'})`,
    );
    // (The steps readings before the cutoff went too: counted apart.)
    if (drop.total < janMinutes) throw new Error(`January: ${drop.total} removed, not ≥ ${janMinutes}`);
    // Daily purges (cutoff one day later each): 3 before the store grows by 9 days of March, 3 after.
    const daily = async (from: number) => {
      const ms: number[] = [];
      for (let k = 0; k < 3; k++)
        ms.push((await purge(`2027-03-${String(from + k).padStart(2, '0')}T00:00:00Z`)).ms);
      return median(ms);
    };
    const before = await daily(13); // cutoffs 11–13 February
    await fillDays('2027-03-01', 9);
    await maintenance('VACUUM ANALYZE');
    const after = await daily(16); // cutoffs 14–16 February
    console.log(
      `daily purge of one day (median of 3): ${before.toFixed(0)} ms; after the store grew by 9 days: ${after.toFixed(0)} ms; ratio ${(after / before).toFixed(2)}`,
    );
  } finally {
    await bench.stop();
  }
}

if (PARTS.has('ingest')) await ingestAndStorage();
if (PARTS.has('store')) await storeQueriesAndPurge();
console.log(`\nload average at the end ${loadAvg()}`);
