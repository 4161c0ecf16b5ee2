import { newPasswordSchema, type Role, roleSchema } from '@trialwear/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { hashPassword } from '../auth/passwords.js';

export const newUserSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters').max(50),
  email: z.email('Email is invalid'),
  password: newPasswordSchema,
  firstName: z.string().trim().min(1, 'First Name is required'),
  lastName: z.string().trim().min(1, 'Last name is required'),
  organization: z.string().optional(),
  teamId: z.number().int(),
  role: roleSchema,
  sfaRequired: z.boolean().default(true),
});
export type NewUser = z.input<typeof newUserSchema>;

export async function createUser(db: Db, input: NewUser): Promise<number> {
  const u = newUserSchema.parse(input);
  const clash = await db
    .selectFrom('users')
    .select(['username', 'email'])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(username)`, '=', u.username.toLowerCase()),
        eb(sql<string>`lower(email)`, '=', u.email.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
  if (clash) {
    const what = clash.username.toLowerCase() === u.username.toLowerCase() ? 'username' : 'email';
    throw new AppError(409, `A user with this ${what} already exists`, 'Conflict', { displayToUser: true });
  }
  const passwordHash = await hashPassword(u.password);
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('users')
      .values({
        username: u.username,
        email: u.email,
        first_name: u.firstName,
        last_name: u.lastName,
        organization: u.organization ?? null,
        password_hash: passwordHash,
        sfa_required: u.sfaRequired,
        last_selected_team_id: u.teamId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('team_memberships')
      .values({ user_id: id, team_id: u.teamId, role: u.role, default_team: true })
      .execute();
    return id;
  });
}

export async function findUserIdByUsername(db: Db, username: string): Promise<number> {
  const user = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  if (!user) throw new AppError(404, `No user named "${username}"`, 'NotFound', { displayToUser: true });
  return user.id;
}

/** Adds (or changes) the user's role in a team. */
export async function addMembership(db: Db, userId: number, teamId: number, role: Role) {
  await db
    .insertInto('team_memberships')
    .values({ user_id: userId, team_id: teamId, role })
    .onConflict((oc) => oc.columns(['user_id', 'team_id']).doUpdateSet({ role }))
    .execute();
}
