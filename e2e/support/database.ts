/*
 * SQL against a running portal's embedded PostgreSQL, for the few journeys
 * that need data no screen creates (a catalog device without metrics, a
 * second team with many participants). Connects as the cluster's bootstrap
 * superuser, found the way the server finds it: the password file in
 * DATA_DIR and the port in the postmaster's pid file. The shared server's
 * DATA_DIR unless a journey's own server's is given.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { dataDir } from './browser.js';

/** The embedded cluster's port and bootstrap superuser password (of the shared server unless `dir`). */
export function clusterOf(dir: string = dataDir()) {
  const password = fs.readFileSync(path.join(dir, 'pg-password'), 'utf8').trim();
  const port = Number(fs.readFileSync(path.join(dir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[3]);
  return { host: '127.0.0.1', port, user: 'trialwear', password };
}

export async function withDatabase<T>(
  work: (client: pg.Client) => Promise<T>,
  dir: string = dataDir(),
  database = 'trialwear',
): Promise<T> {
  const client = new pg.Client({ ...clusterOf(dir), database });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The demo team stores these metrics of its first Fitbit tracker (what the
 * metrics manager and the retention page set), so that the export offers
 * them. Answers the tracker's name and `restore`, which puts back what the
 * team had before (for the shared server; an own server is thrown away).
 */
export async function storeFitbitMetrics(
  metrics: readonly string[],
  dir: string = dataDir(),
): Promise<{ deviceName: string; restore: () => Promise<void> }> {
  return withDatabase(async (db) => {
    const { rows } = await db.query<{ id: number; team_id: number; device_name: string }>(
      `SELECT s.id, s.team_id, g.device_name FROM team_supported_devices s
       JOIN global_device_catalog g ON g.id = s.global_device_catalog_id
       JOIN teams t ON t.id = s.team_id
       WHERE t.team_name = 'Demo Research Team' AND s.is_active
         AND g.manufacturer = 'Fitbit' AND g.device_type = 'fitness_tracker'
       ORDER BY g.device_name, s.id LIMIT 1`,
    );
    const device = rows[0]!;
    const settingsBefore = await db.query<{ id: number; is_enabled: boolean }>(
      `SELECT id, is_enabled FROM device_metric_settings
       WHERE team_supported_device_id = $1 AND metric_key = ANY($2)`,
      [device.id, metrics],
    );
    const storedBefore = await db.query<{ id: number; is_enabled: boolean }>(
      `SELECT id, is_enabled FROM team_storage_settings
       WHERE team_id = $1 AND device_type = 'fitness_tracker' AND metric_key = ANY($2)`,
      [device.team_id, metrics],
    );
    const restore = () =>
      withDatabase(async (db2) => {
        await db2.query(
          `DELETE FROM device_metric_settings WHERE team_supported_device_id = $1 AND metric_key = ANY($2)
           AND NOT (id = ANY($3::int[]))`,
          [device.id, metrics, settingsBefore.rows.map((r) => r.id)],
        );
        for (const r of settingsBefore.rows)
          await db2.query('UPDATE device_metric_settings SET is_enabled = $2 WHERE id = $1', [
            r.id,
            r.is_enabled,
          ]);
        await db2.query(
          `DELETE FROM team_storage_settings WHERE team_id = $1 AND device_type = 'fitness_tracker'
           AND metric_key = ANY($2) AND NOT (id = ANY($3::int[]))`,
          [device.team_id, metrics, storedBefore.rows.map((r) => r.id)],
        );
        for (const r of storedBefore.rows)
          await db2.query('UPDATE team_storage_settings SET is_enabled = $2 WHERE id = $1', [
            r.id,
            r.is_enabled,
          ]);
      }, dir);
    await db.query(
      `INSERT INTO device_metric_settings (team_id, team_supported_device_id, metric_key, metric_name, metric_units, is_enabled)
       SELECT $1, $2, c.metric_key, c.metric_name, c.units, true FROM metric_catalog c
       WHERE c.device_type = 'fitness_tracker' AND c.metric_key = ANY($3)
       ON CONFLICT (team_supported_device_id, metric_key) DO UPDATE SET is_enabled = true`,
      [device.team_id, device.id, metrics],
    );
    await db.query(
      `INSERT INTO team_storage_settings (team_id, device_type, metric_key, metric_name, units)
       SELECT $1, 'fitness_tracker', c.metric_key, c.metric_name, c.units FROM metric_catalog c
       WHERE c.device_type = 'fitness_tracker' AND c.metric_key = ANY($2)
       ON CONFLICT DO NOTHING`,
      [device.team_id, metrics],
    );
    await db.query(
      `UPDATE team_storage_settings SET is_enabled = true
       WHERE team_id = $1 AND device_type = 'fitness_tracker' AND metric_key = ANY($2)`,
      [device.team_id, metrics],
    );
    return { deviceName: device.device_name, restore };
  }, dir);
}

/** Enqueue one device-sync job as the scheduler does (same queue, same singleton key). */
export async function enqueueSync(deviceId: number, dir: string = dataDir()) {
  const boss = new PgBoss({ ...clusterOf(dir), database: 'trialwear' });
  boss.on('error', () => {});
  await boss.start();
  try {
    await boss.send('device-sync', { deviceId }, { singletonKey: `device-${deviceId}` });
  } finally {
    await boss.stop({ graceful: false });
  }
}
