import { z } from 'zod';

/**
 * The error shape of core §8: every error answer of the API has exactly these
 * keys. Only a `displayToUser` message may be shown as is; for anything else
 * the client shows its own generic text.
 */
export const apiErrorSchema = z.object({
  message: z.string(),
  displayToUser: z.boolean(),
  reason: z.string(),
  location: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  user: z.unknown().nullable(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const GENERIC_ERRORS = {
  anError: 'An error occurred',
  unknown: 'An unknown error occurred.',
} as const;

/** Error reasons the server sends. The UI maps some of them to labels ('Validation Error', 'Database Error'). */
export const ERROR_REASONS = [
  'ValidationError',
  'DBError',
  'NotSignedIn',
  'Forbidden',
  'CsrfError',
  'NotFound',
  'Conflict',
  'CodeTaken',
  'EmailTaken',
  'LimitReached',
  'ACCOUNT_LOCKED',
  'RateLimited',
  'RecaptchaFailed',
  'MailError',
  'InternalError',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];
