/*
 * Sessions. The HttpOnly session cookie (`tw_session`, `__Host-tw_session`
 * over https) carries a random token; the database keeps its SHA-256 with
 * the user's token_version at creation. A plain logout deletes only its own
 * session; "log out everywhere", a password change or reset, and a lock
 * reached inside a session bump token_version, which ends every session of
 * that user at once. Team and role always come from here, never from a
 * request body.
 */
import {
  type AuthStatus,
  cookieName,
  effectiveHiddenFields,
  type HiddenField,
  type Role,
  type SessionUser,
} from '@trialwear/contract';
import { utcDate } from '@trialwear/zone';
import type { FastifyRequest } from 'fastify';
import { notSignedIn, sessionExpired } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { inTransaction } from '../../db/transaction.js';
import type { RequestOrigin } from '../../http/session-identity.js';
import { hashToken, newSessionToken, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../security/tokens.js';
import * as repo from './repo.js';

/** The session cookie's name (`__Host-tw_session` over https). */
export const sessionCookieName = (ctx: Pick<AppContext, 'config'>) =>
  cookieName('session', ctx.config.secureCookies);

export interface RequestAuth {
  sessionId: string;
  status: AuthStatus;
  user: SessionUser;
  teamId: number | null;
  role: Role | null;
  /** The session team's hidden participant fields (core §3: the team decides), read with the session. */
  hiddenParticipantFields: HiddenField[];
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
    /** The request carried a session cookie whose session has expired (idle or 12-hour limit). */
    authExpired: boolean;
  }
}

export function teamStatus(
  team: { is_active: boolean; subscription_starts: string | null; subscription_ends: string | null },
  now: Date,
): 'Active' | 'Inactive' {
  const today = utcDate(now);
  if (!team.is_active) return 'Inactive';
  if (team.subscription_starts && team.subscription_starts > today) return 'Inactive';
  if (team.subscription_ends && team.subscription_ends < today) return 'Inactive';
  return 'Active';
}

type UserFields = { id: number; username: string; email: string; first_name: string; last_name: string };
type MembershipFields = {
  team_id: number;
  role: string;
  team_name: string;
  is_active: boolean;
  subscription_starts: string | null;
  subscription_ends: string | null;
};

/** The user as the API sends it, from the user and their membership in the session's team (if any). */
function sessionUserOf(user: UserFields, membership: MembershipFields | undefined, now: Date) {
  const role = (membership?.role ?? null) as Role | null;
  const sessionUser: SessionUser = {
    id: user.id,
    userName: user.username,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role,
    team_id: membership?.team_id ?? null,
    team_name: membership?.team_name ?? null,
    team_status: membership ? teamStatus(membership, now) : null,
  };
  return { sessionUser, role };
}

/** The user as the API sends it, in the team (and so the role) the session is in. */
export async function buildSessionUser(
  ctx: Pick<AppContext, 'db' | 'now'>,
  user: UserFields,
  teamId: number | null,
): Promise<{ sessionUser: SessionUser; role: Role | null }> {
  const membership = teamId === null ? undefined : await repo.findMembership(ctx.db, user.id, teamId);
  return sessionUserOf(user, membership, ctx.now());
}

/** Records a new session; returns its token, which the route sets as the session cookie. */
export async function startSession(
  ctx: Pick<AppContext, 'db' | 'now'>,
  origin: Pick<RequestOrigin, 'ip' | 'userAgent'>,
  s: { userId: number; teamId: number | null; status: AuthStatus; tokenVersion: number },
): Promise<string> {
  const token = newSessionToken();
  const now = ctx.now();
  await repo.insertSession(ctx.db, {
    id: hashToken(token),
    userId: s.userId,
    teamId: s.teamId,
    authStatus: s.status,
    tokenVersion: s.tokenVersion,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
  return token;
}

/** Ends one session (logout); the route clears the cookie. */
export async function endSession(ctx: Pick<AppContext, 'db'>, sessionId: string | null) {
  if (sessionId) await repo.deleteSession(ctx.db, sessionId);
}

/** Slide the idle expiry forward (POST /auth/refreshToken), within the absolute lifetime. */
export async function refreshSession(ctx: AppContext, sessionId: string) {
  const session = await repo.findSession(ctx.db, sessionId);
  if (!session) throw notSignedIn();
  const now = ctx.now();
  const absoluteEnd = new Date(session.created_at).getTime() + SESSION_ABSOLUTE_MS;
  if (now.getTime() >= absoluteEnd) {
    await repo.deleteSession(ctx.db, sessionId);
    throw sessionExpired();
  }
  await repo.extendSession(
    ctx.db,
    sessionId,
    now,
    new Date(Math.min(now.getTime() + SESSION_IDLE_MS, absoluteEnd)),
  );
}

/** onRequest hook body: resolve request.auth from the cookie (null when absent or no longer valid). */
export async function resolveAuth(ctx: AppContext, request: FastifyRequest): Promise<RequestAuth | null> {
  const token = request.cookies[sessionCookieName(ctx)];
  if (!token) return null;
  const sessionId = hashToken(token);
  // One query on every /api request: session, user, membership and team together.
  const row = await repo.findSessionAuth(ctx.db, sessionId);
  if (!row) return null;
  const now = ctx.now();
  if (new Date(row.expires_at).getTime() <= now.getTime()) {
    await repo.deleteSession(ctx.db, sessionId);
    request.authExpired = true;
    return null;
  }
  if (!row.is_active || row.token_version !== row.session_token_version) return null;
  const membership =
    row.team_id === null || row.role === null
      ? undefined
      : {
          team_id: row.team_id,
          role: row.role,
          team_name: row.team_name!,
          is_active: row.team_is_active!,
          subscription_starts: row.subscription_starts,
          subscription_ends: row.subscription_ends,
        };
  const { sessionUser, role } = sessionUserOf(row, membership, now);
  return {
    sessionId,
    status: row.auth_status as AuthStatus,
    user: sessionUser,
    teamId: sessionUser.team_id,
    role,
    hiddenParticipantFields: effectiveHiddenFields(row.hidden_participant_fields),
  };
}

export async function setSessionStatus(ctx: Pick<AppContext, 'db'>, sessionId: string, status: AuthStatus) {
  await repo.setSessionStatus(ctx.db, sessionId, status);
}

export async function setSessionTeam(ctx: Pick<AppContext, 'db'>, sessionId: string, teamId: number) {
  await repo.setSessionTeam(ctx.db, sessionId, teamId);
}

/** Ends every session of a user (log out everywhere, password change/reset, a lock inside a session). */
export async function endAllSessions(ctx: Pick<AppContext, 'db' | 'now'>, userId: number) {
  await inTransaction(ctx, async (tx) => {
    await repo.bumpTokenVersion(tx.db, userId, tx.now());
    await repo.deleteUserSessions(tx.db, userId);
  });
}
