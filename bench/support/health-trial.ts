/*
 * What the study-health benches share: a trial's participants, each with a
 * Fitbit link and its state (battery, the provider's last sync) and `days`
 * days of device_health_days ending today (UTC), written in SQL as the sync
 * would write them. Every 7th participant wore the tracker little, every
 * 11th has a low battery.
 */
import fs from 'node:fs';
import path from 'node:path';
import { addDays, utcDate } from '@trialwear/zone';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../apps/server/src/db/database.js';

export async function seedHealthTrial(
  db: Db,
  t: { teamId: number; trialId: number; code: string },
  participants: number,
  days: number,
) {
  const today = utcDate(Date.now());
  for (let start = 0; start < participants; start += 500) {
    await db
      .insertInto('participants')
      .values(
        Array.from({ length: Math.min(500, participants - start) }, (_, k) => ({
          team_id: t.teamId,
          trial_id: t.trialId,
          email: `${t.code.toLowerCase()}${start + k}@bench.example`,
          participant_code_suffix: String(start + k).padStart(5, '0'),
          participant_code: `${t.code}-${String(start + k).padStart(5, '0')}`,
        })),
      )
      .execute();
  }
  const { trialId } = t;
  await sql`
    INSERT INTO participant_devices (participant_id, team_id, provider, authorization_status, authorization_date, provider_user_id)
    SELECT id, team_id, 'fitbit', 'authorized', now(), 'B' || id FROM participants WHERE trial_id = ${trialId}`.execute(
    db,
  );
  await sql`
    INSERT INTO device_sync_state (participant_device_id, provider_last_sync_at, battery_level, device_checked_at)
    SELECT d.id, now() - interval '1 hour', CASE WHEN d.participant_id % 11 = 0 THEN 9 ELSE 80 END, now()
    FROM participant_devices d JOIN participants p ON p.id = d.participant_id WHERE p.trial_id = ${trialId}`.execute(
    db,
  );
  await sql`
    INSERT INTO device_health_days (participant_device_id, participant_id, local_date, wear_minutes, metrics_present)
    SELECT d.id, d.participant_id, day::date,
           CASE WHEN d.participant_id % 7 = 0 THEN 200 ELSE 600 + (d.participant_id * 37 + extract(doy FROM day)::int * 13) % 840 END,
           ARRAY['heart_rate_intraday', 'steps']
    FROM participant_devices d JOIN participants p ON p.id = d.participant_id
    CROSS JOIN generate_series(${addDays(today, -(days - 1))}::date, ${today}::date, interval '1 day') AS day
    WHERE p.trial_id = ${trialId}`.execute(db);
}

/**
 * VACUUM ANALYZE as the embedded cluster's superuser (the app's role owns no
 * table, so its ANALYZE skipped them all): the planner's statistics and the
 * visibility map autovacuum would give a table loaded a minute ago, so the
 * bench measures the plans production runs, not those of an empty table.
 */
export async function vacuumAnalyze(dataDir: string, port: number) {
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const su = new pg.Client(`postgres://trialwear:${password}@127.0.0.1:${port}/trialwear`);
  await su.connect();
  try {
    await su.query('VACUUM ANALYZE');
  } finally {
    await su.end();
  }
}
