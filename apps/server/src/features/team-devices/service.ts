/** A team's device configuration: readable by its members; a Sys_Admin reads (and configures) every team. */

import type { Actor } from '../../access/actor.js';
import { notFound } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import * as repo from './repo.js';

function requireTeamAccess(actor: Actor, teamId: number) {
  if (actor.teamId !== teamId && actor.role !== 'Sys_Admin') throw notFound('Team not found');
}

export function allowedBrands(ctx: AppContext, actor: Actor, teamId: number) {
  requireTeamAccess(actor, teamId);
  return repo.activeAllowedBrands(ctx.db, teamId);
}

export function supportedDevices(ctx: AppContext, actor: Actor, teamId: number) {
  requireTeamAccess(actor, teamId);
  return repo.supportedDevices(ctx.db, teamId);
}
