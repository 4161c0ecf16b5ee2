import { z } from 'zod';

/** Staff roles of both specs. A role is held per team (team membership). */
export const ROLES = ['Sys_Admin', 'Admin', 'User', 'Viewer'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Sys_Admin passes every role check (spec core §4 and §6). */
export function roleAllows(role: Role | null | undefined, allowed: readonly Role[]): boolean {
  if (!role) return false;
  return role === 'Sys_Admin' || allowed.includes(role);
}

/** The role groups both specs grant rights to; defined once, used by the page and API tables. */
export const ROLE_GROUPS = {
  staff: ['Sys_Admin', 'Admin', 'User', 'Viewer'],
  writers: ['Sys_Admin', 'Admin', 'User'],
  admins: ['Sys_Admin', 'Admin'],
  sysAdmin: ['Sys_Admin'],
} as const satisfies Record<string, readonly Role[]>;

/**
 * Sys_Admin is platform-wide, not a team role (SECURITY.md): the pages that
 * reach other teams say so, so nobody mistakes what they show for one team's.
 */
export const SYS_ADMIN_SCOPE_NOTES = {
  dbInfo: "All teams: as a system administrator you see every team's records here, not only your own team's.",
  deviceMetrics:
    "All teams: as a system administrator you configure every team's devices here, not only your own team's.",
} as const;
