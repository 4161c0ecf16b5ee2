/*
 * The participant's own pages (issue #14): sign-in for the accounts made by
 * /ParticipantSignupPage, and /ParticipantHome, where a participant sees
 * which device they share with which study and can stop sharing.
 *
 * A participant account is tied to enrolled participants by its email (the
 * same address, in any team), and only once the account's owner has proven
 * that address by opening the link mailed at sign-up: otherwise anybody
 * could sign up with a participant's address and stop their sharing. Teams
 * that keep no emails store placeholder addresses, so their participants
 * never match an account.
 */
import { z } from 'zod';
import { loginRequestSchema } from './auth.js';
import { providerSchema } from './devices.js';
import { idSchema } from './ids.js';

export const PARTICIPANT_PORTAL_MESSAGES = {
  signedOut: 'You have signed out.',
  /** The account's email is not yet confirmed: nothing is listed until it is. */
  emailUnconfirmed:
    'Confirm your email address first: open the link in the email we sent when you signed up, then sign in.',
  emailConfirmed: 'Your email address is confirmed.',
  noLinks: 'You are not sharing any device with a study.',
  stopped: 'You no longer share this device with the study.',
  stopFailed: 'Sharing could not be stopped. Please try again later or contact the study team.',
  linkNotFound: 'This device is not shared with a study.',
} as const;

/** POST /api/participantAuth/login: the staff sign-in's fields, plus the email confirmation token of the sign-up mail. */
export const participantLoginRequestSchema = loginRequestSchema.extend({
  verifyToken: z.string().max(200).optional(),
});
export type ParticipantLoginRequest = z.infer<typeof participantLoginRequestSchema>;

export const participantAccountSchema = z.object({
  username: z.string(),
  email: z.string(),
  emailConfirmed: z.boolean(),
});
export type ParticipantAccount = z.infer<typeof participantAccountSchema>;

/** GET /api/participantAuth/account (and the sign-in's answer). */
export const participantSessionSchema = z.object({ account: participantAccountSchema });

/** One device the participant shares with one study (an authorized link). */
export const sharedDeviceSchema = z.object({
  linkId: idSchema,
  provider: providerSchema,
  trialName: z.string(),
  teamName: z.string(),
  since: z.string().nullable(),
});
export type SharedDevice = z.infer<typeof sharedDeviceSchema>;

/** GET /api/participantAuth/sharing */
export const sharedDevicesSchema = z.object({
  emailConfirmed: z.boolean(),
  links: z.array(sharedDeviceSchema),
});
export type SharedDevices = z.infer<typeof sharedDevicesSchema>;

export const linkIdParamsSchema = z.object({ linkId: idSchema });
