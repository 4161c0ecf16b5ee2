/*
 * Export (issues #12 and #24, performance): the archive writer against
 * `psql COPY … TO STDOUT CSV | gzip -6` over the same rows, in the same run
 * (budget: ≥ 0.8× its rows/s), the writer's peak RSS (budget: < 250 MB;
 * #24: < 300 MB), the same archive as Parquet (#24 item 4, decision 042:
 * ≥ 1.0× the baseline's rows/s, peak RSS < 300 MB), and a 100 MB download
 * over HTTP against reading the file from disk (budget: ≥ 0.8×).
 *
 * Setup (support/readings-db.ts): an embedded PostgreSQL in a temp DATA_DIR,
 * migrated as the server migrates it, 50 participants (codes BENCH0001…) each
 * linked to a Fitbit Sense, filled in SQL (generate_series, foreign-key
 * triggers off for the fill only) with per-minute heart rate and steps at
 * UTC−05:00 for as many days as make `BENCH_ROWS` (10,000,000) minutes,
 * stored as the portal stores them (intraday day rows, decision 039) and,
 * for the baseline, the same minutes as rows of `bench_rows`, a copy of the
 * row-per-reading table with its indexes; then VACUUM ANALYZE and CHECKPOINT.
 *
 * Each of `BENCH_ROUNDS` (1) rounds, in alternating order:
 * - writer: a child process (writer.ts) runs writeExportArchive (single-tab,
 *   every participant, both metrics, every day) into the directory export
 *   storage (temp file, fsync, rename); it reports its time and its VmHWM;
 * - parquet: the same with `format: 'parquet'` (one Parquet file per metric);
 * - psql | gzip -6: `COPY (SELECT <the stored columns> FROM bench_rows … ORDER BY
 *   participant_id, metric_key, measured_at) TO STDOUT (FORMAT csv)` for the
 *   same participants, metrics and local dates, through psql and gzip -6 to
 *   a file (the strict baseline: PostgreSQL formats nothing, no joins).
 * Both outputs are checked: the writer's manifest counts and the baseline's
 * lines are the generated row count.
 *
 * Download: a 100 MiB file (`BENCH_DOWNLOAD_MB`) is written through the
 * export storage; a child process (download-server.ts) serves it with
 * Fastify from storage.open() as the download route does; `BENCH_DOWNLOAD_ROUNDS`
 * (5) rounds of reading it from disk (`cat | wc -c`) and over HTTP (`curl` on
 * loopback, status and length checked), medians: with the file
 * dropped from the page cache before each read (from disk, the budget's
 * case) and with it cached.
 *
 *   npx tsx --conditions=source bench/export/run.ts        # BENCH_ROWS=1000000 for a quick run
 *   BENCH_CASES=parquet,baseline …                           # leave the CSV writer out
 *   BENCH_PARTS=download npx tsx --conditions=source bench/export/run.ts   # the download alone
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays } from '@trialwear/zone';
import { cpuMs, postmasterPid } from '../support/cpu.js';
import { root } from '../support/processes.js';
import { readingsDatabase } from '../support/readings-db.js';
import { downloadBench } from './download.js';
import { fmt, median, run } from './timed-run.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const DOWNLOAD_MB = Number(process.env.BENCH_DOWNLOAD_MB ?? 100);
const DOWNLOAD_ROUNDS = Number(process.env.BENCH_DOWNLOAD_ROUNDS ?? 5);
/** Which export cases run: `writer` (CSV), `parquet`, `baseline` (comma-separated; default all). */
const CASES = new Set((process.env.BENCH_CASES ?? 'writer,parquet,baseline').split(','));
/** Which parts run: `export`, `download` or both (comma-separated). */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'export,download').split(','));
const PARTICIPANTS = 50;
const PER_DAY = 2 * 1440; // heart rate and steps every minute (intraday day rows, decision 039)
const OFFSET_MIN = -300;
const FIRST_DAY = '2026-01-01';
const FILL_DAYS = 5;

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-export-'));
  try {
    if (PARTS.has('export')) await exportBench(work);
    if (PARTS.has('download')) await downloadBench(work, { mb: DOWNLOAD_MB, rounds: DOWNLOAD_ROUNDS });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function exportBench(work: string) {
  const load = os.loadavg();
  const bench = await readingsDatabase('export', PARTICIPANTS);
  try {
    const { db, maintenance, teamId, participantIds, connectionString } = bench;
    const days = Math.max(1, Math.round(ROWS / (PARTICIPANTS * PER_DAY)));
    const total = days * PARTICIPANTS * PER_DAY;
    const lastDay = addDays(FIRST_DAY, days - 1);

    // Participant codes and a Fitbit Sense each, as a real team has them.
    const sense = await db
      .selectFrom('global_device_catalog')
      .select('id')
      .where('device_name', '=', 'Fitbit Sense')
      .executeTakeFirstOrThrow();
    for (const [i, id] of participantIds.entries()) {
      const suffix = String(i + 1).padStart(4, '0');
      await db
        .updateTable('participants')
        .set({ participant_code: `BENCH${suffix}`, participant_code_suffix: suffix })
        .where('id', '=', id)
        .execute();
    }
    const links = await db
      .insertInto('participant_devices')
      .values(
        participantIds.map((id) => ({
          participant_id: id,
          team_id: teamId,
          provider: 'fitbit' as const,
          global_device_catalog_id: sense.id,
          authorization_status: 'authorized' as const,
        })),
      )
      .returning(['id', 'participant_id'])
      .execute();

    const f0 = performance.now();
    await maintenance('SET session_replication_role = replica');
    const start = new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) - OFFSET_MIN * 60_000); // local midnight
    const value = (minute: string) =>
      `CASE WHEN m.key = 'steps_intraday' THEN (l.participant_id * 31 + ${minute}) % 130 ELSE 52 + (l.participant_id * 7 + ${minute}) % 90 END`;
    // The same minutes twice: as day rows (what the writer reads) and as rows of a copy of the
    // row-per-reading table (what the baseline COPY reads).
    await maintenance('CREATE TABLE bench_rows (LIKE device_readings INCLUDING DEFAULTS INCLUDING INDEXES)');
    await maintenance('GRANT SELECT ON bench_rows TO trialwear_app');
    await bench.pool.query('SELECT intraday_ensure_partitions($1::date, $2::date)', [FIRST_DAY, lastDay]);
    for (let d0 = 0; d0 < days; d0 += FILL_DAYS) {
      const params = [
        teamId,
        d0,
        Math.min(d0 + FILL_DAYS, days) - 1,
        start,
        links.map((l) => l.participant_id),
        links.map((l) => l.id),
      ];
      await maintenance(
        `INSERT INTO intraday_days (participant_id, team_id, metric_key, local_date, start_at, step_seconds,
           utc_offset_minutes, samples, value_count, worn_count, newest_at, newest_offset_minutes,
           participant_device_id, provider, fetched_at)
         SELECT l.participant_id, $1, m.key, (t.at + interval '${OFFSET_MIN} minutes')::date, t.at, 60, ${OFFSET_MIN},
                (SELECT array_agg((${value('q')})::float8 ORDER BY q) FROM generate_series(0, 1439) q),
                1440, 1440, t.at + interval '1439 minutes', ${OFFSET_MIN}, l.id, 'fitbit', now()
           FROM generate_series($2::int, $3::int) AS d
           CROSS JOIN (VALUES ('heart_rate_intraday'), ('steps_intraday')) AS m(key)
           CROSS JOIN LATERAL (SELECT $4::timestamptz + make_interval(days => d) AS at) AS t
           CROSS JOIN unnest($5::int[], $6::int[]) AS l(participant_id, id)`,
        params,
      );
      await maintenance(
        `INSERT INTO bench_rows (participant_id, team_id, metric_key, measured_at, local_date, local_time,
           utc_offset_minutes, value, participant_device_id, provider, fetched_at)
         SELECT l.participant_id, $1, m.key, t.at, (t.at + interval '${OFFSET_MIN} minutes')::date,
                (t.at + interval '${OFFSET_MIN} minutes')::time, ${OFFSET_MIN}, ${value('q')},
                l.id, 'fitbit', now()
           FROM generate_series($2::int, $3::int) AS d
           CROSS JOIN (VALUES ('heart_rate_intraday'), ('steps_intraday')) AS m(key)
           CROSS JOIN LATERAL generate_series(0, 1439) AS q
           CROSS JOIN LATERAL (SELECT $4::timestamptz + make_interval(days => d, mins => q) AS at) AS t
           CROSS JOIN unnest($5::int[], $6::int[]) AS l(participant_id, id)`,
        params,
      );
    }
    await maintenance('SET session_replication_role = DEFAULT');
    await maintenance('VACUUM ANALYZE');
    await maintenance('CHECKPOINT');
    const filled = Number(
      (await bench.pool.query('SELECT sum(value_count)::bigint AS n FROM intraday_days')).rows[0].n,
    );
    if (filled !== total) throw new Error(`filled ${filled} minutes, expected ${total}`);
    console.log(
      `${fmt(total)} readings (${PARTICIPANTS} participants × ${days} days × ${PER_DAY}), filled in ${((performance.now() - f0) / 1000).toFixed(0)} s; ${os.cpus().length} CPUs, load average ${load.map((l) => l.toFixed(1)).join(' ')}`,
    );

    const request = {
      teamId,
      participantIds,
      metricKeys: ['heart_rate_intraday', 'steps_intraday'],
      startDate: FIRST_DAY,
      endDate: lastDay,
      mode: 'single-tab' as const,
      jobParams: { fileName: 'bench', startDate: FIRST_DAY, endDate: lastDay },
    };
    const baselineSql = `COPY (SELECT r.participant_id, r.metric_key, r.local_date, r.local_time, r.utc_offset_minutes,
        r.measured_at, r.value, r.value_json, r.participant_device_id, r.provider
      FROM bench_rows r
      WHERE r.team_id = ${teamId} AND r.participant_id = ANY('{${participantIds.join(',')}}'::int[])
        AND r.metric_key IN ('heart_rate_intraday', 'steps_intraday')
        AND r.local_date BETWEEN '${FIRST_DAY}' AND '${lastDay}'
      ORDER BY r.participant_id, r.metric_key, r.measured_at) TO STDOUT (FORMAT csv)`;
    const plan = await bench.pool.query(
      `EXPLAIN ${baselineSql.slice(6, baselineSql.lastIndexOf(') TO STDOUT'))}`,
    );
    console.log(`baseline plan:\n  ${plan.rows.map((r) => r['QUERY PLAN']).join('\n  ')}`);
    // The writer's statement for one participant, planned with the settings of its transaction.
    const planClient = await bench.pool.connect();
    let partPlan: { rows: Record<string, string>[] };
    try {
      await planClient.query('BEGIN');
      await planClient.query('SET LOCAL enable_sort = off');
      await planClient.query('SET LOCAL enable_bitmapscan = off');
      await planClient.query('SET LOCAL enable_seqscan = off');
      partPlan = await planClient.query(
        `EXPLAIN SELECT * FROM intraday_readings r WHERE r.participant_id = ${participantIds[0]}
           AND r.metric_key = 'heart_rate_intraday'
           AND r.team_id = ${teamId} AND r.local_date BETWEEN '${FIRST_DAY}' AND '${lastDay}'
         ORDER BY r.metric_key, r.local_date, r.sample_index`,
      );
    } finally {
      await planClient.query('ROLLBACK');
      planClient.release();
    }
    console.log(`writer's per-part plan:\n  ${partPlan.rows.map((r) => r['QUERY PLAN']).join('\n  ')}`);

    const times: Record<'writer' | 'parquet' | 'psql | gzip -6', number[]> = {
      writer: [],
      parquet: [],
      'psql | gzip -6': [],
    };
    // CPU seconds per case: PostgreSQL's (the postmaster and its backends) and the client's
    // (the writer process; psql and gzip), to tell where the time goes.
    const cpu: Record<keyof typeof times, { pg: number[]; client: number[] }> = {
      writer: { pg: [], client: [] },
      parquet: { pg: [], client: [] },
      'psql | gzip -6': { pg: [], client: [] },
    };
    const pgCpu = () => cpuMs(postmasterPid(bench.dataDir), true);
    const sizes: Record<string, number> = {};
    const rss: Record<string, number[]> = { writer: [], parquet: [] };
    const cases = (['writer', 'parquet', 'psql | gzip -6'] as const).filter((c) =>
      CASES.has(c === 'psql | gzip -6' ? 'baseline' : c),
    );
    for (let round = 0; round < ROUNDS; round++) {
      const order: (keyof typeof times)[] = round % 2 ? [...cases].reverse() : [...cases];
      for (const name of order) {
        await maintenance('CHECKPOINT');
        const pg0 = pgCpu();
        if (name === 'writer' || name === 'parquet') {
          const out = await run(
            process.execPath,
            [...process.execArgv, path.join(root, 'bench/export/writer.ts')],
            {
              ...process.env,
              BENCH_EXPORT: JSON.stringify({
                databaseUrl: connectionString,
                dir: work,
                key: `${name}-${round}.zip`,
                request: name === 'parquet' ? { ...request, format: 'parquet' } : request,
              }),
            },
          );
          const r = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as {
            ms: number;
            rows: number;
            bytes: number;
            vmHwmKb: number;
            startKb: number;
            progressCalls: number;
            cpuMs: number;
          };
          cpu[name].pg.push(pgCpu() - pg0);
          cpu[name].client.push(r.cpuMs);
          if (r.rows !== total) throw new Error(`the ${name} writer exported ${r.rows} rows, not ${total}`);
          times[name].push(r.ms);
          rss[name]!.push(r.vmHwmKb);
          sizes[name] = r.bytes;
          console.log(
            `round ${round + 1} ${name}: ${(r.ms / 1000).toFixed(1)} s, ${fmt(r.rows / (r.ms / 1000))} rows/s, ${(r.bytes / 1048576).toFixed(1)} MiB ZIP, peak RSS ${(r.vmHwmKb / 1024).toFixed(0)} MiB (at start ${(r.startKb / 1024).toFixed(0)} MiB), ${r.progressCalls} progress calls`,
          );
          fs.rmSync(path.join(work, `${name}-${round}.zip`), { force: true });
        } else {
          const file = path.join(work, `baseline-${round}.csv.gz`);
          const r = await run(
            'bash',
            [
              '-c',
              // `times`: the CPU of the shell's children (psql and gzip), user then system.
              'set -o pipefail; psql "$BENCH_URL" -X -q -v ON_ERROR_STOP=1 -c "$BENCH_SQL" | gzip -6 > "$BENCH_OUT"; times',
            ],
            { ...process.env, BENCH_URL: connectionString, BENCH_SQL: baselineSql, BENCH_OUT: file },
          );
          cpu['psql | gzip -6'].pg.push(pgCpu() - pg0);
          const children = r.stdout.trim().split('\n').at(-1)!;
          cpu['psql | gzip -6'].client.push(
            [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
              (ms, m) => ms + (Number(m[1]) * 60 + Number(m[2])) * 1000,
              0,
            ),
          );
          times['psql | gzip -6'].push(r.ms);
          sizes['psql | gzip -6'] = fs.statSync(file).size;
          if (round === 0) {
            const lines = Number((await run('bash', ['-c', `gzip -dc "${file}" | wc -l`])).stdout.trim());
            if (lines !== total) throw new Error(`the baseline wrote ${lines} lines, not ${total}`);
          }
          console.log(
            `round ${round + 1} psql | gzip -6: ${(r.ms / 1000).toFixed(1)} s, ${fmt(total / (r.ms / 1000))} rows/s, ${(sizes['psql | gzip -6']! / 1048576).toFixed(1)} MiB`,
          );
          fs.rmSync(file, { force: true });
        }
      }
    }
    const rate = (name: keyof typeof times) => total / (median(times[name]) / 1000);
    console.log(
      `\n${'case'.padEnd(16)} ${'median'.padStart(8)} ${'rows/s'.padStart(11)} ${'MiB'.padStart(8)} ${'PG CPU'.padStart(8)} ${'client CPU'.padStart(11)}`,
    );
    const cpuS = (xs: number[]) => `${(median(xs) / 1000).toFixed(1)} s`;
    for (const name of cases)
      console.log(
        `${name.padEnd(16)} ${`${(median(times[name]) / 1000).toFixed(1)} s`.padStart(8)} ${fmt(rate(name)).padStart(11)} ${(sizes[name]! / 1048576).toFixed(1).padStart(8)} ${cpuS(cpu[name].pg).padStart(8)} ${cpuS(cpu[name].client).padStart(11)}`,
      );
    // Targets: the CSV writer ≥ 0.8× and < 250 MB (#12); Parquet ≥ 1.0× and < 300 MB (#24 item 4).
    const targets = { writer: { ratio: 0.8, mb: 250 }, parquet: { ratio: 1.0, mb: 300 } } as const;
    for (const name of ['writer', 'parquet'] as const) {
      if (!cases.includes(name)) continue;
      const peak = Math.max(...rss[name]!) / 1024;
      const { ratio: want, mb } = targets[name];
      if (cases.includes('psql | gzip -6')) {
        const ratio = rate(name) / rate('psql | gzip -6');
        console.log(
          `${name} / baseline: ${ratio.toFixed(2)}× (target ≥ ${want.toFixed(1)}×: ${ratio >= want ? 'met' : 'MISSED'})`,
        );
      }
      console.log(
        `${name} peak RSS: ${peak.toFixed(0)} MiB (target < ${mb} MB: ${peak * 1.048576 < mb ? 'met' : 'MISSED'})`,
      );
    }
  } finally {
    await bench.stop();
  }
}

await main();
