/*
 * The study-health journey's trials, written as the background sync and the rules' evaluation
 * write them (SQL on the shared server's database): stored wear days, device states and open
 * alerts (e2e/journeys/study-health.e2e.test.ts).
 */
import type pg from 'pg';
import { withDatabase } from './database.js';

/** The UTC date `daysAgo` days before now (the journey trials' zone is UTC). */
export const utcDate = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

let trials = 0;

/** A journey trial of the team, 'Health study <prefix>' numbered H1, H2, … in this run. */
async function newTrial(db: pg.Client, teamId: number, prefix: string): Promise<number> {
  trials += 1;
  const r = await db.query(
    `INSERT INTO trials (team_id, trial_number, trial_name, trial_code) VALUES ($1, $2, $3, $4) RETURNING id`,
    [teamId, `H${trials}`, `Health study ${prefix}`, prefix],
  );
  return r.rows[0].id;
}

/**
 * A trial of the journey team (trial zone UTC: the participants' provider zone) with three Fitbit
 * participants: X-001 worn 9.5 h yesterday, 0 h the day before, nothing stored three days ago (no
 * data); X-002 whose Fitbit has not synced for 4 days and whose Omron link errored, with the two
 * open alerts the rules' evaluation keeps open for that (noSync counts active links only: an
 * alert it could not hold was closed by the hourly evaluation when it ran during the journey);
 * X-003 fine; X-004 a Dexcom CGM. `viewer` (a Viewer's username) is made a user of the trial.
 */
export async function healthTrial(teamId: number, prefix: string, viewer: string) {
  return withDatabase(async (db) => {
    const trialId = await newTrial(db, teamId, prefix);
    const participant = async (suffix: string, status: string, lastSyncDaysAgo: number, battery: number) => {
      const code = `${prefix}-${suffix}`;
      const pid: number = (
        await db.query(
          `INSERT INTO participants (team_id, trial_id, email, participant_code, participant_code_suffix)
           VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [teamId, trialId, `${code.toLowerCase()}@participants.trialwear.local`, code, suffix],
        )
      ).rows[0].id;
      const deviceId: number = (
        await db.query(
          `INSERT INTO participant_devices (participant_id, team_id, provider, authorization_status,
             authorization_date, provider_user_id, provider_timezone)
           VALUES ($1, $2, 'fitbit', $3, now(), $4, 'UTC') RETURNING id`,
          [pid, teamId, status, `HEALTHE2E${pid}`],
        )
      ).rows[0].id;
      await db.query(
        `INSERT INTO device_sync_state (participant_device_id, time_zone, provider_last_sync_at, battery_level)
         VALUES ($1, 'UTC', now() - make_interval(days => $2), $3)`,
        [deviceId, lastSyncDaysAgo, battery],
      );
      return { pid, deviceId, code };
    };
    const x1 = await participant('001', 'authorized', 0, 80);
    const x2 = await participant('002', 'authorized', 4, 55);
    await db.query(
      `INSERT INTO participant_devices (participant_id, team_id, provider, authorization_status,
         authorization_date, provider_user_id, provider_timezone)
       VALUES ($1, $2, 'omron', 'error', now(), $3, 'UTC')`,
      [x2.pid, teamId, `HEALTHE2EOMRON${x2.pid}`],
    );
    const x3 = await participant('003', 'authorized', 0, 90);
    const day = (p: { pid: number; deviceId: number }, daysAgo: number, minutes: number) =>
      db.query(
        `INSERT INTO device_health_days (participant_device_id, participant_id, local_date, wear_minutes, metrics_present)
         VALUES ($1, $2, $3, $4, '{heart_rate}')`,
        [p.deviceId, p.pid, utcDate(daysAgo), minutes],
      );
    await day(x1, 1, 570);
    await day(x1, 2, 0);
    for (const d of [1, 2, 3]) await day(x3, d, 900);
    const alert = async (ruleKey: string) =>
      (
        await db.query(
          `INSERT INTO health_alerts (team_id, trial_id, participant_id, rule_key, opened_at, detail)
           VALUES ($1, $2, $3, $4, now() - interval '1 day', '{}') RETURNING id`,
          [teamId, trialId, x2.pid, ruleKey],
        )
      ).rows[0].id as number;
    await alert('noSync');
    await alert('linkError');
    // X-004 wears a Dexcom CGM: its day is CGM active time.
    const x4 = await participant('004', 'authorized', 0, 70);
    await db.query(`UPDATE participant_devices SET provider = 'dexcom' WHERE id = $1`, [x4.deviceId]);
    await db.query(
      `INSERT INTO device_health_days (participant_device_id, participant_id, local_date, cgm_active_percent, metrics_present)
       VALUES ($1, $2, $3, 92.5, '{egv}')`,
      [x4.deviceId, x4.pid, utcDate(2)],
    );
    // The Viewer is a trial user of every journey trial.
    await db.query(
      `INSERT INTO trial_users (trial_id, user_id) SELECT $1, id FROM users WHERE username = $2`,
      [trialId, viewer],
    );
    return { trialId, codes: [x1.code, x2.code, x3.code, x4.code], pids: [x1.pid, x2.pid, x3.pid, x4.pid] };
  });
}

/**
 * A trial of `count` Fitbit participants `<prefix>-0001`… (all synced today, nothing worn or
 * stored: nobody needs attention, so the page lists them by code), written in three statements.
 */
export async function crowdedTrial(teamId: number, prefix: string, count: number) {
  return withDatabase(async (db) => {
    const trialId = await newTrial(db, teamId, prefix);
    await db.query(
      `WITH p AS (
         INSERT INTO participants (team_id, trial_id, email, participant_code, participant_code_suffix)
         SELECT $1, $2, lower($3 || '-' || lpad(i::text, 4, '0')) || '@participants.trialwear.local',
                $3 || '-' || lpad(i::text, 4, '0'), lpad(i::text, 4, '0')
           FROM generate_series(1, $4::int) AS i
         RETURNING id)
       INSERT INTO participant_devices (participant_id, team_id, provider, authorization_status,
          authorization_date, provider_user_id, provider_timezone)
       SELECT id, $1, 'fitbit', 'authorized', now(), 'CROWD' || id, 'UTC' FROM p`,
      [teamId, trialId, prefix, count],
    );
    await db.query(
      `INSERT INTO device_sync_state (participant_device_id, time_zone, provider_last_sync_at, battery_level)
       SELECT d.id, 'UTC', now(), 90 FROM participant_devices d
         JOIN participants p ON p.id = d.participant_id WHERE p.trial_id = $1`,
      [trialId],
    );
    return {
      trialId,
      codes: Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`),
    };
  });
}
