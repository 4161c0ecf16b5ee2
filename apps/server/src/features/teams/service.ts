import {
  type AuthStatus,
  BRANDS,
  type Brand,
  HIDDEN_FIELD_NAMES,
  type SessionUser,
} from '@trialwear/contract';
import { utcDate } from '@trialwear/zone';
import { z } from 'zod';
import { AppError, forbidden, notFound } from '../../access/errors.js';
import { requireSelf, type TeamScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import type { SessionIdentity } from '../../http/session-identity.js';
import * as authRepo from '../auth/repo.js';
import { buildSessionUser, setSessionTeam } from '../auth/session.js';
import * as repo from './repo.js';

export const newTeamSchema = z.object({
  name: z.string().trim().min(1, 'Team name is required').max(100),
  maxParticipants: z.number().int().min(0).optional(),
  maxTrials: z.number().int().min(0).optional(),
  maxUsers: z.number().int().min(0).optional(),
  retentionDays: z.number().int().min(1, 'Retention days must be at least 1').optional(),
  allowedBrands: z.array(z.enum(BRANDS)).default([...BRANDS]),
  /** undefined = unknown = both hidden (spec); [] = none hidden. */
  hiddenFields: z.array(z.enum(HIDDEN_FIELD_NAMES)).optional(),
  organization: z.string().optional(),
});
export type NewTeam = z.input<typeof newTeamSchema>;

/** Creates a team with its allowed brands and the catalog devices of those brands as supported devices. */
export async function createTeam(db: Db, input: NewTeam): Promise<number> {
  const t = newTeamSchema.parse(input);
  return inTransaction({ db }, async ({ db: trx }) => {
    if (await repo.findTeamIdByName(trx, t.name))
      throw new AppError(409, `A team named "${t.name}" already exists`, 'Conflict', { displayToUser: true });
    const id = await repo.insertTeam(trx, {
      name: t.name,
      maxParticipants: t.maxParticipants ?? null,
      maxTrials: t.maxTrials ?? null,
      maxUsers: t.maxUsers ?? null,
      retentionDays: t.retentionDays ?? null,
      hiddenFields: t.hiddenFields ?? null,
      organization: t.organization ?? null,
      subscriptionStarts: utcDate(new Date()),
    });
    if (t.allowedBrands.length) {
      await repo.insertAllowedBrands(trx, id, t.allowedBrands);
      const devices = (await repo.listCatalogDevices(trx)).filter((d) =>
        t.allowedBrands.includes(d.manufacturer),
      );
      await repo.insertSupportedDevices(
        trx,
        id,
        devices.map((d) => d.id),
      );
    }
    return id;
  });
}

/**
 * Takes the team's row lock for the rest of the transaction and returns its
 * limits (max_trials, max_participants, max_users) and hidden fields. Call it
 * first in a transaction that adds what a limit counts: concurrent adds of the
 * team then queue here, and each one's count sees the rows committed before it.
 */
export async function lockTeamForLimits(tx: { db: Db }, team: TeamScope) {
  if (!tx.db.isTransaction) throw new Error('lockTeamForLimits must run inside a transaction');
  const row = await repo.lockTeam(tx.db, team);
  if (!row) throw notFound('Team not found');
  return row;
}

export async function findTeamIdByName(db: Db, name: string): Promise<number> {
  const team = await repo.findTeamIdByName(db, name);
  if (!team) throw new AppError(404, `No team named "${name}"`, 'NotFound', { displayToUser: true });
  return team.id;
}

/**
 * Replaces a team's allowed brands; the catalog devices of the brands kept or
 * added become (or stay) supported, those of removed brands are deactivated
 * (not deleted: participant links and storage settings may refer to them).
 */
export async function setAllowedBrands(db: Db, teamId: number, brands: Brand[]) {
  await inTransaction({ db }, async ({ db: trx }) => {
    await repo.deleteAllowedBrands(trx, teamId);
    await repo.insertAllowedBrands(trx, teamId, brands);
    for (const device of await repo.listCatalogDevices(trx)) {
      await repo.upsertSupportedDevice(trx, teamId, device.id, brands.includes(device.manufacturer));
    }
  });
}

/** The caller's teams; every team for a Sys_Admin. */
export async function listTeams(ctx: AppContext, who: SessionIdentity) {
  if (who.role === 'Sys_Admin') return repo.listAllTeams(ctx.db);
  return (await repo.listMemberships(ctx.db, who.userId)).map((m) => ({
    id: m.team_id,
    team_name: m.team_name,
  }));
}

export async function listAllTeams(ctx: AppContext) {
  return (await repo.listAllTeams(ctx.db)).map((t) => ({ team_id: t.id, team_name: t.team_name }));
}

/** A user's teams with the role in each: the caller's own, or anyone's for a Sys_Admin. */
export async function listUserTeams(ctx: AppContext, who: SessionIdentity, userId: number) {
  requireSelf(who, userId);
  return repo.listMemberships(ctx.db, userId);
}

/** Switches the session to another of the user's teams; the role comes from that membership. */
export async function selectTeam(
  ctx: AppContext,
  who: SessionIdentity,
  teamId: number,
): Promise<{ message: AuthStatus; user: SessionUser }> {
  const membership = await inTransaction(ctx, async (tx) => {
    const membership = await authRepo.findMembership(tx.db, who.userId, teamId);
    if (!membership) throw forbidden();
    await setSessionTeam(tx, who.sessionId, membership.team_id);
    await repo.setLastSelectedTeam(tx.db, who.userId, membership.team_id);
    await recordAudit(tx.db, {
      userId: who.userId,
      teamId: membership.team_id,
      action: 'team.selected',
      entityType: 'team',
      entityId: membership.team_id,
      before: { teamId: who.teamId },
      after: { teamId: membership.team_id, role: membership.role },
      requestId: who.requestId,
      ip: who.ip,
    });
    return membership;
  });
  const user = (await authRepo.findUserById(ctx.db, who.userId))!;
  const { sessionUser } = await buildSessionUser(ctx, user, membership.team_id);
  return { message: 'Authorized', user: sessionUser };
}
