/*
 * Ingest (issue #11, budget: the readings upsert reaches at least 0.5× the
 * rows/s of PostgreSQL COPY FROM into the same table on the same machine, in
 * one run). Starts an embedded PostgreSQL in a temp DATA_DIR, migrated as the
 * server migrates it, with `BENCH_PARTICIPANTS` (50) participants; generates
 * `BENCH_DAYS` (6) days of one-minute heart-rate readings per participant
 * (50 × 6 × 1,440 = 432,000 rows; stored under `egv`, a metric kept one
 * row per reading) and loads them into the empty
 * device_readings table (its primary key, foreign keys and two indexes) by:
 *
 * - COPY: `COPY device_readings (…) FROM STDIN` through pg-copy-streams, the
 *   rows serialised to COPY text as they stream;
 * - upsert: `upsertReadings` (apps/server/src/features/readings/repo.ts, the
 *   sync's own write path), called once per participant-day (1,440 rows, what
 *   the sync stores per intraday fetch) and, second figure, with 10,000 rows
 *   per call;
 * - re-upsert: the same rows again into the full table (a re-fetch: nothing
 *   changes, nothing is written).
 *
 * Every case runs on an emptied table (TRUNCATE, then CHECKPOINT so no case
 * pays another's writes), `BENCH_ROUNDS` (3) rounds taking turns; the median
 * of each is printed with rows/s and the ratio to COPY. Each load is checked:
 * the table holds exactly the generated rows.
 *
 *   npx tsx --conditions=source bench/ingest.ts
 */
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { type ReadingRow, upsertReadings } from '../apps/server/src/features/readings/repo.js';
import { readingsDatabase } from './support/readings-db.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 50);
const DAYS = Number(process.env.BENCH_DAYS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OFFSET_MIN = -300; // the participants' zone: UTC−5, no DST in the window
const START = Date.parse('2026-01-05T05:00:00Z'); // local midnight at UTC−5

const pad = (n: number) => String(n).padStart(2, '0');

function generate(teamId: number, participantIds: number[]): ReadingRow[][] {
  // One array per participant-day: what one intraday fetch of the sync stores.
  const days: ReadingRow[][] = [];
  for (const pid of participantIds)
    for (let d = 0; d < DAYS; d++) {
      const day: ReadingRow[] = [];
      const localDate = new Date(START + d * 86_400_000 + OFFSET_MIN * 60_000).toISOString().slice(0, 10);
      for (let m = 0; m < 1440; m++)
        day.push({
          participant_id: pid,
          team_id: teamId,
          // A metric stored a row per reading (heart rate per minute is an intraday day row since
          // #24: bench/intraday.ts measures that path).
          metric_key: 'egv',
          measured_at: new Date(START + (d * 1440 + m) * 60_000),
          local_date: localDate,
          local_time: `${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`,
          utc_offset_minutes: OFFSET_MIN,
          value: 55 + ((pid * 7 + m * 13) % 70),
        });
      days.push(day);
    }
  return days;
}

/** COPY text: tab-separated, \N for NULL (no value needs escaping here). */
function* copyText(rows: ReadingRow[]) {
  const CHUNK = 5_000;
  for (let i = 0; i < rows.length; i += CHUNK) {
    let s = '';
    for (const r of rows.slice(i, i + CHUNK))
      s += `${r.participant_id}\t${r.team_id}\t${r.metric_key}\t${r.measured_at.toISOString()}\t${r.local_date}\t${r.local_time}\t${r.utc_offset_minutes}\t${r.value}\t\\N\t\\N\n`;
    yield s;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const load = os.loadavg();
  const bench = await readingsDatabase('ingest', PARTICIPANTS);
  try {
    const { db, pool, maintenance } = bench;
    const days = generate(bench.teamId, bench.participantIds);
    const rows = days.flat();
    const count = async () =>
      Number((await pool.query('SELECT count(*)::int AS n FROM device_readings')).rows[0].n);
    const reset = async () => {
      await maintenance('TRUNCATE device_readings');
      await maintenance('CHECKPOINT');
    };

    const cases: Record<string, () => Promise<void>> = {
      COPY: async () => {
        const client = await pool.connect();
        try {
          const stream = client.query(
            copyFrom(
              'COPY device_readings (participant_id, team_id, metric_key, measured_at, local_date, local_time, utc_offset_minutes, value, value_json, participant_device_id) FROM STDIN',
            ),
          );
          await pipeline(Readable.from(copyText(rows)), stream);
        } finally {
          client.release();
        }
      },
      'upsert, 1,440 rows a call': async () => {
        for (const day of days) await upsertReadings(db, day);
      },
      'upsert, 10,000 rows a call': async () => {
        for (let i = 0; i < rows.length; i += 10_000) await upsertReadings(db, rows.slice(i, i + 10_000));
      },
    };
    const times: Record<string, number[]> = {};
    for (const name of Object.keys(cases)) times[name] = [];
    times['re-upsert (nothing changed), 1,440 a call'] = [];

    console.log(
      `${rows.length.toLocaleString('en')} readings (${PARTICIPANTS} participants × ${DAYS} days × 1,440), ${ROUNDS} rounds, ${os.cpus().length} CPUs, load average ${load.map((l) => l.toFixed(1)).join(' ')}`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order, so that a change in the machine's load weighs on every case alike.
      const names = Object.keys(cases);
      if (round % 2) names.reverse();
      for (const name of names) {
        await reset();
        const t0 = performance.now();
        await cases[name]!();
        times[name]!.push(performance.now() - t0);
        const n = await count();
        if (n !== rows.length) throw new Error(`${name}: the table holds ${n} rows, not ${rows.length}`);
        if (name === 'upsert, 1,440 rows a call') {
          const t1 = performance.now();
          let written = 0;
          for (const day of days) written += await upsertReadings(db, day);
          times['re-upsert (nothing changed), 1,440 a call']!.push(performance.now() - t1);
          if (written !== 0 || (await count()) !== rows.length)
            throw new Error(`re-upsert wrote ${written} rows: the upsert is not idempotent`);
        }
      }
      process.stdout.write(`round ${round + 1} done\n`);
    }
    const copyRate = rows.length / (median(times.COPY!) / 1000);
    console.log('\ncase                                        median      rows/s   ×COPY');
    for (const [name, ts] of Object.entries(times)) {
      const ms = median(ts);
      const rate = rows.length / (ms / 1000);
      console.log(
        `${name.padEnd(42)} ${`${(ms / 1000).toFixed(2)} s`.padStart(8)} ${Math.round(rate).toLocaleString('en').padStart(11)}   ${(rate / copyRate).toFixed(2)}`,
      );
    }
    const sync = rows.length / (median(times['upsert, 1,440 rows a call']!) / 1000) / copyRate;
    console.log(
      `\nupsert (the sync's calls) / COPY = ${sync.toFixed(2)}× (target ≥ 0.5×: ${sync >= 0.5 ? 'met' : 'MISSED'})`,
    );
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
