/*
 * Fixtures of the study-health tests: a team whose User and Viewer are trial
 * users of one trial (`trialId`) and not of another (`otherTrialId`), and rows
 * written as the sync and the rules' evaluation will write them (device links
 * with their state, stored days, alerts).
 */
import type { HealthRuleKey, LinkProvider } from '@trialwear/contract';
import { expect } from 'vitest';
import { type TeamFixture, teamWithRoles } from './fixtures.js';
import type { TestApp } from './test-app.js';

export interface HealthTeam {
  team: TeamFixture;
  /** The User and the Viewer are trial users of it. */
  trialId: number;
  /** A trial of the same team the User and the Viewer are not on. */
  otherTrialId: number;
}

let seq = 0;

export async function healthTeam(t: TestApp, name = 'Health'): Promise<HealthTeam> {
  seq += 1;
  const team = await teamWithRoles(t, `${name} ${seq}`, { hiddenFields: [] });
  const trial = async (n: string) => {
    const res = await team.as.Admin.post('/api/userTrials', { trialNumber: n, trialName: `Health ${n}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().trialId as number;
  };
  const trialId = await trial('1');
  const otherTrialId = await trial('2');
  for (const role of ['User', 'Viewer'] as const) {
    const { email } = await t.ctx.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', team.userIds[role])
      .executeTakeFirstOrThrow();
    const res = await team.as.Admin.post('/api/trialUsers', { userEmail: email, trialId });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { team, trialId, otherTrialId };
}

/** A participant added through the API; answers its id and code. */
export async function addParticipant(t: TestApp, team: TeamFixture, trialId: number, email: string) {
  const res = await team.as.Admin.post('/api/trialParticipants', { trialId, email });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().participantId as number;
  const { participant_code: code } = await t.ctx.db
    .selectFrom('participants')
    .select('participant_code')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, code };
}

/** A device link with the state the sync keeps for it (device_sync_state). */
export async function insertLink(
  t: TestApp,
  teamId: number,
  participantId: number,
  link: {
    provider?: LinkProvider;
    status?: 'pending' | 'authorized' | 'revoked' | 'error';
    providerZone?: string | null;
    syncZone?: string | null;
    lastSyncAt?: string | null;
    battery?: number | null;
  } = {},
) {
  const { id } = await t.ctx.db
    .insertInto('participant_devices')
    .values({
      participant_id: participantId,
      team_id: teamId,
      global_device_catalog_id: null,
      provider: link.provider ?? 'fitbit',
      authorization_status: link.status ?? 'authorized',
      authorization_date: new Date(),
      provider_user_id: `HEALTH${participantId}${link.provider ?? 'fitbit'}`,
      legacy_user_id: null,
      provider_timezone: link.providerZone ?? null,
      notes: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.ctx.db
    .insertInto('device_sync_state')
    .values({
      participant_device_id: id,
      time_zone: link.syncZone ?? null,
      provider_last_sync_at: link.lastSyncAt ?? null,
      battery_level: link.battery ?? null,
    })
    .execute();
  return id;
}

/** A stored day of a device, as the sync writes it. */
export async function insertHealthDay(
  t: TestApp,
  day: {
    deviceId: number;
    participantId: number;
    date: string;
    wearMinutes?: number | null;
    cgmActivePercent?: number | null;
    bpReadings?: number | null;
    metrics?: string[];
  },
) {
  await t.ctx.db
    .insertInto('device_health_days')
    .values({
      participant_device_id: day.deviceId,
      participant_id: day.participantId,
      local_date: day.date,
      wear_minutes: day.wearMinutes ?? null,
      cgm_active_percent: day.cgmActivePercent == null ? null : String(day.cgmActivePercent),
      bp_readings: day.bpReadings ?? null,
      metrics_present: day.metrics ?? [],
    })
    .execute();
}

/** An alert as the rules' evaluation opens (and closes) it. */
export async function insertAlert(
  t: TestApp,
  alert: {
    teamId: number;
    trialId: number;
    participantId: number;
    ruleKey: HealthRuleKey;
    openedAt: string;
    closedAt?: string;
    acknowledged?: { by: number; at: string; note: string };
    detail?: Record<string, unknown>;
  },
) {
  const { id } = await t.ctx.db
    .insertInto('health_alerts')
    .values({
      team_id: alert.teamId,
      trial_id: alert.trialId,
      participant_id: alert.participantId,
      rule_key: alert.ruleKey,
      opened_at: new Date(alert.openedAt),
      closed_at: alert.closedAt ?? null,
      acknowledged_at: alert.acknowledged?.at ?? null,
      acknowledged_by: alert.acknowledged?.by ?? null,
      note: alert.acknowledged?.note ?? null,
      detail: JSON.stringify(alert.detail ?? {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
