import type { HiddenField, Role } from '@trialwear/contract';

/**
 * Who is acting, in which team and role: built from the session by the
 * transport (`http/actor.ts` `actorOf`), never from a request body. Jobs and
 * the CLI act without one; whatever a person reaches goes through an Actor and
 * the scope rules of `access/scope.ts`.
 */
export interface Actor {
  userId: number;
  teamId: number;
  role: Role;
  requestId: string;
  ip: string;
  /** The team's hidden participant fields, read with the session on this request (a change applies at once). */
  hiddenParticipantFields: readonly HiddenField[];
}
