/*
 * Demo data for a first local start: one team, two trials with participants,
 * one account per role. The accounts are printed at start and listed in the
 * README. The participants' emails are placeholders, never real people.
 */
import type { Role } from '@trialwear/contract';
import type { Db } from '../db/database.js';
import { createTeam } from '../features/teams/service.js';
import { createUser } from '../features/users/service.js';

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

export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return false;
  await seedDemo(db);
  return true;
}

export async function seedDemo(db: Db): Promise<{ teamId: number; userIds: Record<string, number> }> {
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
  const trials = [
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
  for (const t of trials) {
    const { id: trialId } = await db
      .insertInto('trials')
      .values({
        team_id: teamId,
        trial_number: t.number,
        trial_name: t.name,
        trial_notes: t.notes,
        trial_code: t.code,
        owner_user_id: userIds.admin!,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('trial_users')
      .values(
        [userIds.admin!, userIds.coordinator!, userIds.viewer!].map((user_id) => ({
          trial_id: trialId,
          user_id,
        })),
      )
      .execute();
    await db
      .insertInto('participants')
      .values(
        Array.from({ length: t.participants }, (_, i) => {
          const suffix = String(i + 1).padStart(3, '0');
          return {
            team_id: teamId,
            trial_id: trialId,
            email: `${t.code.toLowerCase()}-${suffix}@participants.trialwear.local`,
            gender: GENDERS[i % GENDERS.length],
            age: 25 + ((i * 7) % 50),
            notes: i % 3 === 0 ? 'Prefers morning visits' : null,
            participant_code_suffix: suffix,
            participant_code: `${t.code}-${suffix}`,
          };
        }),
      )
      .execute();
  }
  return { teamId, userIds };
}
