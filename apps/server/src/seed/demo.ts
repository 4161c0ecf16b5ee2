/*
 * Demo data for a first local start: one team, two trials with participants,
 * one account per role. The accounts are printed at start and listed in the
 * README. The participants' emails are placeholders, never real people.
 *
 * Study health (issue #23 item 9, decision 036): the third trial's first
 * participants wear a simulated Fitbit tracker. Their days (wear minutes per
 * participant-local day), battery and last sync are the simulator's own
 * truth, set and read in-process through the simulators' library calls (the
 * same state the mounted simulator answers from), stored by the device
 * health check's repo; two of them need attention (one stopped wearing the
 * tracker, one has a nearly empty battery), and the alerts are raised by the
 * rules' real evaluation.
 *
 * Minute-level data (issue #24 item 6): the team stores intraday heart rate
 * and steps of its Fitbit trackers, and the wearers' first sync runs in the
 * background after the first start (startDemoSync), through the mounted
 * simulator like any link's.
 *
 * Every device on first start (issue #26): a fourth trial's participants
 * have Omron (blood pressure and weight) and Dexcom (glucose) links, granted
 * in-process by the mounted simulators like the wearers' Fitbit links; the
 * team stores the usual daily metrics of each device (DEMO_STORED), so the
 * first sync stores them and the export page has data to export with no
 * configuration. The trials the journeys link participants in (001, 002)
 * stay unlinked.
 */
import type { Role } from '@trialwear/contract';
import {
  fitbitDevices,
  fitbitTrackerLastSync,
  fitbitUserId,
  fitbitUserTimezone,
  fitbitWearMinutes,
  setFitbitBattery,
  setFitbitWear,
} from '@trialwear/simulators';
import { addDays, localDate } from '@trialwear/zone';
import { systemScope } from '../access/system.js';
import type { AppContext } from '../app-context.js';
import { inTransaction, lockForTransaction } from '../db/transaction.js';
import * as participantsRepo from '../features/participants/repo.js';
import { createTeam } from '../features/teams/service.js';
import * as trialUsersRepo from '../features/trial-users/repo.js';
import * as trialsRepo from '../features/trials/repo.js';
import { createUser, hasAnyUser } from '../features/users/service.js';
import * as healthRepo from '../jobs/device-health/repo.js';
import { syncMetricsSoon } from '../jobs/device-sync/sync-soon.js';
import { evaluateTrialAlerts } from '../jobs/study-health/evaluate-alerts.js';
import {
  DEMO_HOME_TRIAL,
  DEMO_STORED,
  linkThroughSimulator,
  seedHomeLinks,
  storeDemoMetrics,
} from './demo-devices.js';

export { DEMO_HOME_LINKS, DEMO_HOME_TRIAL, DEMO_STORED, DEMO_STORED_METRICS } from './demo-devices.js';

export const DEMO_TEAM = 'Demo Research Team';
export const DEMO_PASSWORD = 'Demo-pass1!';
export const DEMO_USERS: ReadonlyArray<{
  username: string;
  role: Role;
  firstName: string;
  lastName: string;
}> = [
  { username: 'sysadmin', role: 'Sys_Admin', firstName: 'Sam', lastName: 'Sysadmin' },
  { username: 'admin', role: 'Admin', firstName: 'Ada', lastName: 'Admin' },
  { username: 'coordinator', role: 'User', firstName: 'Cora', lastName: 'Coordinator' },
  { username: 'viewer', role: 'Viewer', firstName: 'Vic', lastName: 'Viewer' },
];

const GENDERS = ['female', 'male', 'other', 'None'] as const;

const DEMO_TRIALS = [
  {
    number: '001',
    name: 'Sleep and Activity Study',
    code: 'SLP',
    notes: 'Sleep duration and daily steps over 12 weeks.',
    participants: 12,
  },
  {
    number: '002',
    name: 'Home Blood Pressure Pilot',
    code: 'HBP',
    notes: 'Morning and evening blood pressure readings.',
    participants: 6,
  },
  {
    // Study health's demo (decision 036): its own trial, so the journeys that link the other
    // trials' participants through the consent pages find them unlinked.
    number: '003',
    name: 'Wear Compliance Study',
    code: 'WCS',
    notes: 'Daily wear of a wrist tracker over 8 weeks; Study health shows who needs a call.',
    participants: 8,
  },
  {
    // Omron and Dexcom on first start (issue #26): a trial of its own, like 003.
    number: '004',
    name: 'Cardiometabolic Home Monitoring',
    code: 'CHM',
    notes: 'Home monitoring over 12 weeks: an Omron cuff and scale, a Dexcom glucose sensor.',
    participants: 4,
  },
];

/** The demo trial whose participants wear simulated trackers, and how many of them do. */
export const DEMO_HEALTH_TRIAL = '003';
const DEMO_WEARERS = 6;
/** Stored days of each tracker: the last complete local days (the heat map's default 14 and one more). */
export const DEMO_HEALTH_DAYS = 15;
/** The two participants who need attention: one stopped wearing the tracker, one's battery is nearly empty. */
export const DEMO_STOPPED_WEARING = 'WCS-002';
export const DEMO_LOW_BATTERY = 'WCS-005';
const STOPPED_DAYS = 3;
const LOW_BATTERY_LEVEL = 8;

/** Seeds only an empty database (no user yet); true when it did. */
export async function seedDemoIfEmpty(ctx: SeedContext): Promise<boolean> {
  if (await hasAnyUser(ctx.db)) return false;
  // Several servers starting at once on an empty database: one seeds, the others then find users.
  return inTransaction(ctx, async (tx) => {
    await lockForTransaction(tx.db, 'trialwear_demo_seed');
    if (await hasAnyUser(tx.db)) return false;
    await seedDemo(tx);
    return true;
  });
}

/** The server's context (the clock, and what the rules' evaluation uses); `db` may be a transaction. */
export type SeedContext = AppContext;

/** All or nothing: a failed seed leaves no half-made demo team behind. */
export async function seedDemo(
  ctx: SeedContext,
): Promise<{ teamId: number; userIds: Record<string, number> }> {
  return inTransaction(ctx, async (tx) => {
    const { db } = tx;
    const teamId = await createTeam(db, {
      name: DEMO_TEAM,
      maxParticipants: 500,
      maxTrials: 20,
      retentionDays: 365,
      hiddenFields: [],
      organization: 'TrialWear Demo University',
    });
    const userIds: Record<string, number> = {};
    for (const u of DEMO_USERS) {
      userIds[u.username] = await createUser(db, {
        username: u.username,
        email: `${u.username}@demo.trialwear.local`,
        password: DEMO_PASSWORD,
        firstName: u.firstName,
        lastName: u.lastName,
        organization: 'TrialWear Demo University',
        teamId,
        role: u.role,
        // Second-factor sign-in arrives with the identity feature; until then demo accounts skip it.
        sfaRequired: false,
      });
    }
    for (const t of DEMO_TRIALS) {
      // The owner becomes the first trial user; the coordinator and the viewer join.
      const trialId = await trialsRepo.insertTrial(db, systemScope.team('seed', teamId), {
        number: t.number,
        name: t.name,
        notes: t.notes,
        code: t.code,
        ownerId: userIds.admin!,
      });
      const trial = systemScope.trial('seed', teamId, trialId);
      for (const userId of [userIds.coordinator!, userIds.viewer!]) {
        await trialUsersRepo.addTrialUser(db, trial, userId);
      }
      await participantsRepo.insertParticipants(
        db,
        trial,
        Array.from({ length: t.participants }, (_, i) => {
          const suffix = String(i + 1).padStart(3, '0');
          return {
            email: `${t.code.toLowerCase()}-${suffix}@participants.trialwear.local`,
            gender: GENDERS[i % GENDERS.length]!,
            age: 25 + ((i * 7) % 50),
            notes: i % 3 === 0 ? 'Prefers morning visits' : null,
            suffix,
            code: `${t.code}-${suffix}`,
          };
        }),
      );
      if (t.number === DEMO_HEALTH_TRIAL) await seedStudyHealth(tx, teamId, trialId);
      if (t.number === DEMO_HOME_TRIAL) await seedHomeLinks(tx, teamId, trialId);
    }
    await storeDemoMetrics(tx, teamId);
    return { teamId, userIds };
  });
}

/**
 * The simulator account of a demo wearer: the first candidate whose own
 * (natural) tracker needs no attention today — battery not low, and not two
 * complete days under the default 10 hours — so exactly the two chosen
 * participants need it. Deterministic for a given day.
 */
function wearerAccount(code: string, now: Date): string {
  for (let n = 0; ; n++) {
    const userId = fitbitUserId(`demo:${code}:${n}`);
    const { tz } = fitbitUserTimezone(userId);
    const today = localDate(tz, now);
    const battery = fitbitDevices(userId, now)[0]!.batteryLevel;
    const wornWell = [1, 2, 3].every((i) => fitbitWearMinutes(userId, addDays(today, -i)) >= 12 * 60);
    if (battery >= 30 && wornWell) return userId;
  }
}

async function seedStudyHealth(ctx: SeedContext, teamId: number, trialId: number) {
  const { db } = ctx;
  const now = ctx.now();
  const participants = await db
    .selectFrom('participants')
    .select(['id', 'participant_code'])
    .where('trial_id', '=', trialId)
    .orderBy('participant_code')
    .limit(DEMO_WEARERS)
    .execute();
  for (const p of participants) {
    const code = p.participant_code!;
    const userId = wearerAccount(code, now);
    const { tz } = fitbitUserTimezone(userId);
    const today = localDate(tz, now);
    // The simulator's control state, in-process: what the mounted simulator answers from now on.
    if (code === DEMO_STOPPED_WEARING)
      setFitbitWear(
        userId,
        Array.from({ length: STOPPED_DAYS + 1 }, (_, i) => addDays(today, -i)),
        0,
      );
    if (code === DEMO_LOW_BATTERY) setFitbitBattery(userId, LOW_BATTERY_LEVEL);

    const deviceId = await linkThroughSimulator(
      ctx,
      { participantId: p.id, teamId },
      'fitbit',
      userId,
      addHours(now, -24 * (DEMO_HEALTH_DAYS + 1)),
    );
    // The participant's zone as the sync keeps it (read from the provider's profile).
    await db
      .insertInto('device_sync_state')
      .values({ participant_device_id: deviceId, time_zone: tz })
      .execute();
    await healthRepo.saveStatus(db, deviceId, {
      lastSyncAt: fitbitTrackerLastSync(userId, now),
      batteryLevel: fitbitDevices(userId, now)[0]!.batteryLevel,
      checkedAt: now,
    });
    // Complete local days only: today's wear is still being recorded.
    const days = Array.from({ length: DEMO_HEALTH_DAYS }, (_, i) => {
      const date = addDays(today, i - DEMO_HEALTH_DAYS);
      return { date, wearMinutes: fitbitWearMinutes(userId, date) };
    });
    await healthRepo.saveDays(db, { id: deviceId, participant_id: p.id }, days, now);
  }
  await evaluateTrialAlerts(ctx, systemScope.trial('seed', teamId, trialId));
}

/**
 * After the seed committed: the demo links' first sync, in the background
 * (the device-sync jobs), so that their days are stored within minutes of
 * the first start (a backfill goes on a minute after each run) without
 * slowing it. Answers the jobs enqueued (0 without a queue).
 */
export async function startDemoSync(ctx: AppContext): Promise<number> {
  const team = await ctx.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', DEMO_TEAM)
    .executeTakeFirst();
  return team
    ? syncMetricsSoon(
        ctx,
        team.id,
        DEMO_STORED.flatMap((d) => d.metrics),
      )
    : 0;
}

const addHours = (d: Date, hours: number) => new Date(d.getTime() + hours * 3_600_000);
