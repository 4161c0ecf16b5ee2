/*
 * Demo data for a first local start: one team, two trials with participants,
 * one account per role. The accounts are printed at start and listed in the
 * README. The participants' emails are placeholders, never real people.
 */
import type { Role } from '@trialwear/contract';
import { systemScope } from '../access/system.js';
import type { Db } from '../db/database.js';
import { inTransaction, lockForTransaction } from '../db/transaction.js';
import * as participantsRepo from '../features/participants/repo.js';
import { createTeam } from '../features/teams/service.js';
import * as trialUsersRepo from '../features/trial-users/repo.js';
import * as trialsRepo from '../features/trials/repo.js';
import { createUser, hasAnyUser } from '../features/users/service.js';

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
];

/** Seeds only an empty database (no user yet); true when it did. */
export async function seedDemoIfEmpty(ctx: { db: Db }): Promise<boolean> {
  if (await hasAnyUser(ctx.db)) return false;
  // Several servers starting at once on an empty database: one seeds, the others then find users.
  return inTransaction(ctx, async (tx) => {
    await lockForTransaction(tx.db, 'trialwear_demo_seed');
    if (await hasAnyUser(tx.db)) return false;
    await seedDemo(tx);
    return true;
  });
}

/** All or nothing: a failed seed leaves no half-made demo team behind. */
export async function seedDemo(ctx: {
  db: Db;
}): Promise<{ teamId: number; userIds: Record<string, number> }> {
  return inTransaction(ctx, async ({ db }) => {
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
    }
    return { teamId, userIds };
  });
}
