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

/**
 * The database is out of reach (a failover, a restart, a network blip): 503
 * with Retry-After on every API route until it is back. The web app shows it
 * once, in a banner, and waits for the portal to be ready again.
 */
export const SERVICE_UNAVAILABLE = {
  message: 'The service is temporarily unavailable. Please try again in a moment.',
  /** Seconds, in the Retry-After header of a 503. */
  retryAfterSeconds: 5,
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
  'ServiceUnavailable',
  /** A service the portal calls for the user (REDCap) refused or failed: its own message is shown. */
  'UpstreamError',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];
