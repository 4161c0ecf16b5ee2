/*
 * Trial users (admin spec "Manage Users for this trial"): the server's
 * messages, the page's own texts, and the answers of the trial-user calls
 * exactly as the server's routes declare them.
 */
import { z } from 'zod';

/** What the server answers when a trial-user change is refused (shown to the user as sent). */
export const TRIAL_USER_MESSAGES = {
  notInTeam: 'No user with this email belongs to your team.',
  alreadyOnTrial: 'This user is already a user of this trial.',
  ownerCannotBeRemoved: 'The trial owner cannot be removed from the trial.',
  notOnTrial: 'This user is not a user of this trial.',
} as const;

/** The page's texts when a call fails without a displayable message, or the local list cannot be updated. */
export const TRIAL_USERS_PAGE_MESSAGES = {
  missing: 'Something went wrong! We could not find trial and users info.',
  addFailed: 'Adding the user to the trial failed!',
  deleteFailed: 'Deleting user from trial failed',
  addedDisplayWrong: 'The user has been added, but the display is wrong. Please refresh the page!',
  deletedDisplayWrong: 'The user has been deleted, but the display is wrong. Please refresh the page!',
} as const;

/** GET /api/teamUsers/{trialId}: members of the team (the Add User choices). */
export const teamUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string(),
});
export type TeamUser = z.infer<typeof teamUserSchema>;

/** GET /api/trialUsers/{trialId}: the trial's users; the owner is marked. */
export const trialUserSchema = z.object({ id: z.number(), email: z.string(), isOwner: z.boolean() });
export type TrialUser = z.infer<typeof trialUserSchema>;

/** POST /api/trialUsers */
export const addTrialUserResultSchema = z.object({
  data: z.object({ userId: z.number(), userEmail: z.string() }),
});
export type AddTrialUserResult = z.infer<typeof addTrialUserResultSchema>;

/** DELETE /api/trialUsers */
export const removeTrialUserResultSchema = z.object({
  success: z.literal(true),
  data: z.object({ userId: z.number() }),
});
export type RemoveTrialUserResult = z.infer<typeof removeTrialUserResultSchema>;
