/*
 * Who is calling, for services that run before (or without) a full session
 * with a team and a role: sign-in, second factor, passwords, sign-up, team
 * switching, contact. Routes build these from the request; services never
 * see the request, the reply or request.auth. Team-scoped calls use Actor.
 */
import type { AuthStatus, Role, SessionUser } from '@trialwear/contract';
import type { FastifyRequest } from 'fastify';
import { notSignedIn } from '../access/errors.js';

/** The sender of a call that needs no session; the session's ids when there is one. */
export interface RequestOrigin {
  requestId: string;
  ip: string;
  userAgent: string | null;
  sessionId: string | null;
  userId: number | null;
}

/** A session, full or partial (second factor pending); team and role may be missing. */
export interface SessionIdentity {
  sessionId: string;
  userId: number;
  teamId: number | null;
  role: Role | null;
  status: AuthStatus;
  requestId: string;
  ip: string;
}

export function originOf(request: FastifyRequest): RequestOrigin {
  return {
    requestId: request.id,
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    sessionId: request.auth?.sessionId ?? null,
    userId: request.auth?.user.id ?? null,
  };
}

/** For routes whose table access is 'session' or stricter: there is a session, maybe partial. */
export function identityOf(request: FastifyRequest): SessionIdentity {
  const auth = request.auth;
  if (!auth) throw notSignedIn();
  return {
    sessionId: auth.sessionId,
    userId: auth.user.id,
    teamId: auth.teamId,
    role: auth.role,
    status: auth.status,
    requestId: request.id,
    ip: request.ip,
  };
}

/** The user as the session check answers it, resolved once per request with the session. */
export function sessionUserOf(request: FastifyRequest): SessionUser {
  if (!request.auth) throw notSignedIn();
  return request.auth.user;
}
