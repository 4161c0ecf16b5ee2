/*
 * The readings benches' database: a temp DATA_DIR with its embedded
 * PostgreSQL, migrated as the server migrates it (the real device_readings
 * table with its keys, foreign keys and indexes), one team, one trial and
 * `participants` participants. The benches write as the application role
 * (`db`, `pool`), as the server does; `maintenance(sql)` runs what only an
 * owner may (TRUNCATE, VACUUM, CHECKPOINT) as the cluster's bootstrap
 * superuser; `connectionString` is the application role's (for a child
 * process). stop() closes the pool, stops PostgreSQL, checks none is left on
 * its port and removes the directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config.js';
import { createTeam } from '../../apps/server/src/features/teams/service.js';
import { openRuntimeDatabase } from '../../apps/server/src/runtime.js';
import { freePort } from '../../scripts/free-port.mjs';
import { postgresRunningOn } from './processes.js';

export async function readingsDatabase(name: string, participants: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tw-bench-${name}-`));
  fs.chmodSync(dataDir, 0o755); // reachable by the cluster's user when run as root
  const pgPort = await freePort();
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  });
  const runtime = await openRuntimeDatabase(config, () => {});
  const { db, pool } = runtime.database;
  // The embedded cluster's bootstrap superuser (its password is kept in DATA_DIR).
  const superuser = new pg.Client({
    connectionString: `postgres://trialwear:${encodeURIComponent(
      fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim(),
    )}@127.0.0.1:${pgPort}/trialwear`,
  });
  await superuser.connect();
  const maintenance = async (text: string, values: unknown[] = []) => {
    await superuser.query(text, values);
  };
  const stop = async () => {
    await superuser.end();
    await runtime.stop();
    const left = postgresRunningOn(pgPort);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (left) throw new Error(`a postgres process was left behind on port ${pgPort}`);
  };
  try {
    const teamId = await createTeam(db, { name: `Bench ${name}`, hiddenFields: [] });
    const trial = await db
      .insertInto('trials')
      .values({ team_id: teamId, trial_number: '1', trial_name: 'Bench', trial_code: 'BENCH' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (let start = 0; start < participants; start += 500) {
      const made = await db
        .insertInto('participants')
        .values(
          Array.from({ length: Math.min(500, participants - start) }, (_, k) => ({
            team_id: teamId,
            trial_id: trial.id,
            email: `p${start + k}@bench.example`,
          })),
        )
        .returning('id')
        .execute();
      ids.push(...made.map((r) => r.id));
    }
    return {
      db,
      pool,
      connectionString: runtime.database.connectionString,
      dataDir,
      maintenance,
      teamId,
      participantIds: ids,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
