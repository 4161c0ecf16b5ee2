import type { HiddenField, Role } from '@trialwear/contract';
import type { FastifyRequest } from 'fastify';
import { forbidden, notSignedIn } from './errors.js';

/** Who is acting, in which team and role: always from the session, never from the request body. */
export interface Actor {
  userId: number;
  teamId: number;
  role: Role;
  requestId: string;
  ip: string;
  /** The team's hidden participant fields, read with the session on this request (a change applies at once). */
  hiddenParticipantFields: readonly HiddenField[];
}

/** For routes whose table access is a role list or 'any': the session is full and has a team and a role. */
export function actorOf(request: FastifyRequest): Actor {
  const auth = request.auth;
  if (!auth) throw notSignedIn();
  if (auth.teamId === null || auth.role === null) throw forbidden('User role is missing.');
  return {
    userId: auth.user.id,
    teamId: auth.teamId,
    role: auth.role,
    requestId: request.id,
    ip: request.ip,
    hiddenParticipantFields: auth.hiddenParticipantFields,
  };
}
