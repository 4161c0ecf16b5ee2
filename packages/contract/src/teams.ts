/** Team lists as the server's team routes answer them. */
import { z } from 'zod';

/** GET /api/userTeamsData/{userId}: each team of the user, with the user's role in it. */
export const userTeamSchema = z.object({ team_id: z.number(), team_name: z.string(), role: z.string() });
export type UserTeam = z.infer<typeof userTeamSchema>;

/** GET /api/sysAdminTeamsData: every team (sign-up approval). */
export const sysAdminTeamSchema = z.object({ team_id: z.number(), team_name: z.string() });
export type SysAdminTeam = z.infer<typeof sysAdminTeamSchema>;

/** GET /api/team: the signed-in user's teams (every team for Sys_Admin). */
export const teamSchema = z.object({ id: z.number(), team_name: z.string() });
export type Team = z.infer<typeof teamSchema>;
