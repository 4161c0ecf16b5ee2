import { z } from 'zod';
import { LIMITS } from './constants.js';
import { idSchema } from './ids.js';

/** Trials (core §5, §8) with the exact messages. */
export const TRIAL_MESSAGES = {
  numberRequired: 'Trial Number is required',
  nameRequired: 'Trial Name is required',
  notesTooLong: `Notes can not be more than ${LIMITS.notesMax} characters`,
  addFailed: 'Adding a new trial failed',
  updateFailed: 'Updating trial failed',
  deleteFailed: 'Deleting current trial failed',
  unauthorized: 'Unauthorized',
  userNotLoaded: 'User info not loaded yet',
  numberTaken: 'A trial with this number already exists in your team.',
  limitReached: 'Your team has reached the maximum number of trials.',
  hasParticipants: 'This trial still has participants. Delete them first, then delete the trial.',
  notFound: "Something went wrong! We could not find trial's info.",
} as const;

export const trialFormSchema = z.object({
  trialNumber: z.string().trim().min(1, TRIAL_MESSAGES.numberRequired).max(50),
  trialName: z.string().trim().min(1, TRIAL_MESSAGES.nameRequired).max(200),
  trialNotes: z.string().max(LIMITS.notesMax, TRIAL_MESSAGES.notesTooLong).optional().default(''),
});
export type TrialForm = z.input<typeof trialFormSchema>;

export const trialUpdateSchema = trialFormSchema.extend({ trialId: idSchema });
export const trialDeleteSchema = z.object({ trialId: idSchema });

export const trialSchema = z.object({
  trialId: z.number(),
  trial_id: z.number(),
  trialNumber: z.string(),
  trialName: z.string(),
  trialNotes: z.string(),
  trialOwnerEmail: z.string().nullable(),
  trial_code: z.string(),
  creation_date: z.string(),
  participantCount: z.number(),
});
export type Trial = z.infer<typeof trialSchema>;

/* Answers of the trial calls, exactly as the server's routes declare them. */

/** POST /api/userTrials */
export const addTrialResultSchema = z.object({ trialId: z.number(), trial: trialSchema });
export type AddTrialResult = z.infer<typeof addTrialResultSchema>;

/** PUT /api/userTrials */
export const updateTrialResultSchema = z.object({ trial: trialSchema });
export type UpdateTrialResult = z.infer<typeof updateTrialResultSchema>;

/** DELETE /api/userTrials */
export const deleteTrialResultSchema = z.object({ success: z.literal(true), trialId: z.number() });
export type DeleteTrialResult = z.infer<typeof deleteTrialResultSchema>;

/** GET /api/trialParticipants/{trialId}/trialCode: the prefix of the trial's participant codes. */
export const trialCodeResultSchema = z.object({ data: z.object({ trial_code: z.string() }) });
export type TrialCodeResult = z.infer<typeof trialCodeResultSchema>;
