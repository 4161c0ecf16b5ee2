/*
 * Sync health after each sync (issue #21 §4): the incremental refreshHealth
 * (device_reading_days, 015) against the former full recount of the device's
 * readings, on 1 M and 10 M readings in the table. Starts an embedded
 * PostgreSQL in a temp DATA_DIR, migrated as the server migrates it, with
 * `BENCH_DEVICES` (20) participants each linked to a Fitbit, and fills
 * device_readings with one-minute heart rate for every device, day after day
 * in time order (generate_series in SQL, as the application role: foreign
 * keys and the 015 triggers on, so the day table is the triggers' own work),
 * until the table holds the size: 1 M rows = 50,000 a device (about 35
 * days), 10 M = 500,000 a device (about a year of minute data). At each size,
 * after VACUUM ANALYZE and CHECKPOINT, one device is measured:
 *
 * - refreshHealth (apps/server/src/jobs/device-sync/repo.ts), `BENCH_CALLS`
 *   (200) calls: ms per call;
 * - the former refreshHealth (its statements verbatim but for the zone, the full recount
 *   of the device's readings), `BENCH_OLD_CALLS` (5) calls: ms per call;
 * - a sync's write of one new day (1,440 rows through upsertReadings) with the
 *   triggers on and off (the write-side cost of keeping the day table), then
 *   the day removed again.
 *
 * The calls run on one connection: besides wall time (refreshHealth taking
 * turns with two trivial statements, the round-trip floor under the same
 * load), its backend's CPU per call from /proc, steadier on a shared machine.
 * The two refreshes must store the same figures (checked). Prints each size
 * and the ratios 10M/1M (the incremental one should stay ~1).
 *
 *   npx tsx --conditions=source bench/refresh-health.ts
 */
import os from 'node:os';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../apps/server/src/db/database.js';
import { localTodaySql } from '../apps/server/src/features/readings/local-today.js';
import { type ReadingRow, upsertReadings } from '../apps/server/src/features/readings/repo.js';
import { ensureState, refreshHealth } from '../apps/server/src/jobs/device-sync/repo.js';
import { cpuMs } from './support/cpu.js';
import { readingsDatabase } from './support/readings-db.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000000,10000000').split(',').map(Number);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const OLD_CALLS = Number(process.env.BENCH_OLD_CALLS ?? 5);
const WRITE_ROUNDS = 5;
const START = Date.parse('2026-01-01T00:00:00Z');
const OFFSET = -300; // UTC−05:00
const FILL_MINUTES = 5 * 1440; // minutes per device per INSERT statement

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The former refreshHealth (before 015), verbatim: every reading of the device recounted. */
async function fullRecount(db: Db, device: { id: number; participant_id: number }, now: Date) {
  const ZERO_FILLED = [
    'steps',
    'distance',
    'floors',
    'calories',
    'minutes_sedentary',
    'minutes_lightly_active',
    'minutes_fairly_active',
    'minutes_very_active',
  ];
  const MOVEMENT = [
    'steps',
    'distance',
    'floors',
    'minutes_lightly_active',
    'minutes_fairly_active',
    'minutes_very_active',
  ];
  await sql`
    UPDATE device_sync_state s SET
      utc_offset_minutes = coalesce((
        SELECT utc_offset_minutes FROM device_readings
        WHERE participant_id = ${device.participant_id} AND participant_device_id = ${device.id}
          AND utc_offset_minutes IS NOT NULL
        ORDER BY measured_at DESC LIMIT 1), s.utc_offset_minutes)
    WHERE s.participant_device_id = ${device.id}`.execute(db);
  await sql`
    UPDATE device_sync_state s SET
      rows_stored = h.rows_stored, days_with_data_7d = h.days7, last_data_date = h.last_day
    FROM (
      SELECT count(r.local_date)::int AS rows_stored,
        count(DISTINCT r.local_date) FILTER (WHERE r.worn AND r.local_date BETWEEN t.today - 6 AND t.today)::int AS days7,
        max(r.local_date) FILTER (WHERE r.worn) AS last_day
      FROM (SELECT ${localTodaySql(now, 'st')} AS today FROM device_sync_state st
        WHERE st.participant_device_id = ${device.id}) t
      LEFT JOIN (
        SELECT local_date,
          (metric_key <> ALL(${ZERO_FILLED}::text[]) OR (metric_key = ANY(${MOVEMENT}::text[]) AND value > 0)) AS worn
        FROM device_readings WHERE participant_id = ${device.participant_id} AND participant_device_id = ${device.id}
      ) r ON true
      GROUP BY t.today
    ) h
    WHERE s.participant_device_id = ${device.id}`.execute(db);
}

const health = (db: Db, deviceId: number) =>
  db
    .selectFrom('device_sync_state')
    .select(['utc_offset_minutes', 'rows_stored', 'days_with_data_7d', 'last_data_date'])
    .where('participant_device_id', '=', deviceId)
    .executeTakeFirstOrThrow();

async function timed(n: number, f: () => Promise<unknown>) {
  await f(); // warm
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/** Median ms of each function, called in turn `n` times (after one warm call each). */
async function alternating(n: number, fs: Array<() => Promise<unknown>>) {
  for (const f of fs) await f();
  const ms = fs.map(() => [] as number[]);
  for (let i = 0; i < n; i++)
    for (const [k, f] of fs.entries()) {
      const t0 = performance.now();
      await f();
      ms[k]!.push(performance.now() - t0);
    }
  return ms.map(median);
}

async function main() {
  const load = os.loadavg();
  const bench = await readingsDatabase('refresh-health', DEVICES);
  try {
    const { db, maintenance, teamId, participantIds } = bench;
    const devices = await db
      .insertInto('participant_devices')
      .values(
        participantIds.map((pid) => ({
          participant_id: pid,
          team_id: teamId,
          provider: 'fitbit' as const,
          authorization_status: 'authorized' as const,
        })),
      )
      .returning(['id', 'participant_id'])
      .execute();
    for (const d of devices) await ensureState(db, d.id);
    const device = devices[0]!;
    console.log(
      `${DEVICES} devices, one-minute heart rate at UTC−05:00; refreshHealth ${CALLS} calls, the full recount ${OLD_CALLS}; ${os.cpus().length} CPUs, load average ${load.map((l) => l.toFixed(1)).join(' ')}`,
    );

    let filled = 0; // minutes per device so far
    const results: Array<{
      rows: number;
      inc: number;
      old: number;
      writeOn: number;
      writeOff: number;
      floor: number;
      incCpu: number;
      oldCpu: number;
    }> = [];
    for (const size of SIZES) {
      const perDevice = Math.round(size / DEVICES);
      const f0 = performance.now();
      for (let m0 = filled; m0 < perDevice; m0 += FILL_MINUTES) {
        await sql`
          INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date,
            local_time, utc_offset_minutes, value, participant_device_id, provider)
          SELECT d.pid, ${teamId}::int, 'heart_rate', t.at, (t.at + ${OFFSET} * interval '1 minute')::date,
            (t.at + ${OFFSET} * interval '1 minute')::time, ${OFFSET}::smallint, 60 + (q % 40), d.id, 'fitbit'
          FROM generate_series(${m0}::int, ${Math.min(m0 + FILL_MINUTES, perDevice) - 1}::int) AS q
          CROSS JOIN LATERAL (SELECT ${new Date(START)}::timestamptz + make_interval(mins => q) AS at) AS t
          CROSS JOIN unnest(${devices.map((d) => d.id)}::int[], ${devices.map((d) => d.participant_id)}::int[]) AS d(id, pid)`.execute(
          db,
        );
      }
      filled = perDevice;
      await maintenance('VACUUM ANALYZE device_readings');
      await maintenance('VACUUM ANALYZE device_reading_days');
      await maintenance('CHECKPOINT');
      const fillS = (performance.now() - f0) / 1000;
      const rows = Number(
        (await sql<{ n: string }>`SELECT count(*) AS n FROM device_readings`.execute(db)).rows[0]!.n,
      );
      // "Now": the evening of the last filled day, local time.
      const now = new Date(START + filled * 60_000);

      // The measured calls on one connection, so that its backend's CPU (from /proc) is theirs alone.
      const one = openDatabase(bench.connectionString, 1);
      const backend = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(one.db)).rows[0]!
        .pid;
      /** The backend's CPU ms per call over `n` calls (steadier than wall time on a shared machine). */
      const cpuPerCall = async (n: number, f: () => Promise<unknown>) => {
        const c0 = cpuMs(backend);
        for (let i = 0; i < n; i++) await f();
        return (cpuMs(backend) - c0) / n;
      };
      const old = await timed(OLD_CALLS, () => fullRecount(one.db, device, now));
      const oldCpu = await cpuPerCall(OLD_CALLS, () => fullRecount(one.db, device, now));
      const expected = await health(db, device.id);
      // Taking turns with two trivial statements (refreshHealth sends two): the floor under the same load.
      const floorCall = async () => {
        await sql`UPDATE device_sync_state SET failure_streak = failure_streak WHERE participant_device_id = ${device.id}`.execute(
          one.db,
        );
        await sql`SELECT 1`.execute(one.db);
      };
      const [inc, floor] = (await alternating(CALLS, [
        () => refreshHealth(one.db, device, now, null),
        floorCall,
      ])) as [number, number];
      const incCpu = await cpuPerCall(CALLS * 5, () => refreshHealth(one.db, device, now, null));
      await one.close();
      const got = await health(db, device.id);
      if (JSON.stringify(got) !== JSON.stringify(expected))
        throw new Error(
          `figures differ: incremental ${JSON.stringify(got)}, recount ${JSON.stringify(expected)}`,
        );
      if (got.rows_stored !== perDevice) throw new Error(`rows_stored ${got.rows_stored}, not ${perDevice}`);

      // A sync's write of one new local day (1,440 rows), with the day table's triggers on, then off.
      const write = async (triggers: boolean) => {
        const toggle = triggers ? 'ENABLE' : 'DISABLE';
        for (const op of ['insert', 'update', 'delete'])
          await maintenance(`ALTER TABLE device_readings ${toggle} TRIGGER device_reading_days_${op}`);
        const ms: number[] = [];
        for (let k = 0; k < WRITE_ROUNDS; k++) {
          const day = START + (filled + 1440 * (k + 2)) * 60_000;
          const batch: ReadingRow[] = Array.from({ length: 1440 }, (_, m) => {
            const at = new Date(day + m * 60_000);
            const local = new Date(at.getTime() + OFFSET * 60_000).toISOString();
            return {
              participant_id: device.participant_id,
              team_id: teamId,
              metric_key: 'heart_rate',
              measured_at: at,
              local_date: local.slice(0, 10),
              local_time: local.slice(11, 19),
              utc_offset_minutes: OFFSET,
              value: 70,
              participant_device_id: device.id,
              provider: 'fitbit',
              fetched_at: now,
            };
          });
          const t0 = performance.now();
          await upsertReadings(db, batch);
          ms.push(performance.now() - t0);
        }
        await sql`DELETE FROM device_readings WHERE participant_device_id = ${device.id}
          AND measured_at >= ${new Date(START + (filled + 1440) * 60_000)}`.execute(db);
        await maintenance('ALTER TABLE device_readings ENABLE TRIGGER ALL');
        return median(ms);
      };
      const writeOn = await write(true);
      const writeOff = await write(false);
      if ((await health(db, device.id)).rows_stored !== perDevice)
        throw new Error('the write rounds left rows behind');
      await refreshHealth(db, device, now, null);
      if ((await health(db, device.id)).rows_stored !== perDevice)
        throw new Error('the day table drifted from the readings over the write rounds');

      results.push({ rows, inc, old, writeOn, writeOff, floor, incCpu, oldCpu });
      console.log(
        `${rows.toLocaleString('en').padStart(11)} rows (${perDevice.toLocaleString('en')} of the device's, filled in ${fillS.toFixed(0)} s): ` +
          `refreshHealth ${inc.toFixed(2)} ms/call (two trivial statements: ${floor.toFixed(2)} ms; backend CPU ${incCpu.toFixed(2)} ms/call); ` +
          `full recount ${old.toFixed(1)} ms/call (backend CPU ${oldCpu.toFixed(1)} ms/call); ` +
          `a 1,440-row day written in ${writeOn.toFixed(1)} ms with the day triggers, ${writeOff.toFixed(1)} ms without`,
      );
    }
    if (results.length === 2) {
      const [s, l] = results as [(typeof results)[0], (typeof results)[0]];
      console.log(
        `\n${l.rows.toLocaleString('en')} / ${s.rows.toLocaleString('en')} rows: refreshHealth ${(l.inc / s.inc).toFixed(2)}× (backend CPU ${(l.incCpu / s.incCpu).toFixed(2)}×), full recount ${(l.old / s.old).toFixed(2)}× (backend CPU ${(l.oldCpu / s.oldCpu).toFixed(2)}×), day write with triggers ${(l.writeOn / s.writeOn).toFixed(2)}×`,
      );
    }
    console.log(
      `load average at the end ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await bench.stop();
  }
}

await main();
