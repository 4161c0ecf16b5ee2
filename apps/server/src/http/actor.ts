import type { FastifyRequest } from 'fastify';
import type { Actor } from '../access/actor.js';
import { forbidden, notSignedIn } from '../access/errors.js';

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
