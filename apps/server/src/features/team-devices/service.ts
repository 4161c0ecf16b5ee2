/** A team's device configuration: readable by its members; a Sys_Admin (platform-wide) reads every team's. */

import { type Actor, requireTeam } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import * as repo from './repo.js';

export function allowedBrands(ctx: AppContext, actor: Actor, teamId: number) {
  return repo.activeAllowedBrands(ctx.db, requireTeam(actor, teamId));
}

export function supportedDevices(ctx: AppContext, actor: Actor, teamId: number) {
  return repo.supportedDevices(ctx.db, requireTeam(actor, teamId));
}
