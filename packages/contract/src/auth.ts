import { z } from 'zod';
import { roleSchema } from './roles.js';

export const LOGIN_MESSAGES = {
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  failed: 'Login failed - Please try again.',
  noResponse: 'No response from server.',
  roleMissing: 'User role is missing.',
  recaptchaToken: 'Failed to get reCAPTCHA token. Please try again.',
  invalidCredentials: 'Invalid username or password',
} as const;

export const ACCESS_MESSAGES = {
  noRole: 'User role is not defined. You do not have access to this page.',
} as const;

export const loginFormSchema = z.object({
  username: z.string().trim().min(1, LOGIN_MESSAGES.usernameRequired),
  password: z.string().min(1, LOGIN_MESSAGES.passwordRequired),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const loginRequestSchema = loginFormSchema.extend({
  recaptchaResponse: z.string().optional().default(''),
});

/** Auth statuses of core §4. */
export const AUTH_STATUSES = [
  'Authorized',
  'SFAValidateEmailCodeNeeded',
  'SFAValidateCodeNeeded',
  'SFAVerifyCodeNeeded',
  'SFAIsNotSet',
] as const;
export const authStatusSchema = z.enum(AUTH_STATUSES);
export type AuthStatus = z.infer<typeof authStatusSchema>;

/** The user as the server sends it (core §3: snake_case team fields). */
export const sessionUserSchema = z.object({
  id: z.number(),
  userName: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: roleSchema.nullable(),
  team_id: z.number().nullable(),
  team_name: z.string().nullable(),
  team_status: z.enum(['Active', 'Inactive']).nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const authResponseSchema = z.object({
  message: authStatusSchema,
  user: sessionUserSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/**
 * GET /api/auth/user answers a caller with no session 200 and this body, not
 * 401: being signed out is an answer, not an error (every signed-out page load
 * asks). A pending second factor still gets the spec's 403 with its status.
 */
export const NOT_SIGNED_IN = 'NotSignedIn' as const;
export const signedOutResponseSchema = z.object({ message: z.literal(NOT_SIGNED_IN), user: z.null() });
export const sessionCheckResponseSchema = z.union([authResponseSchema, signedOutResponseSchema]);
export type SessionCheckResponse = z.infer<typeof sessionCheckResponseSchema>;

/** Special characters a new password may use to satisfy the "one special character" rule (the spec leaves the set open). */
export const PASSWORD_SPECIALS = '!@#$%^&*()_+-=[]{};:\'",.<>/?\\|`~';

export const PASSWORD_MESSAGES = {
  required: 'Password is required',
  tooShort: 'Password can not be less than 8 characters',
  tooLong: 'Password can not be more than 20 characters',
  rule: `Password must contain a lowercase letter, an uppercase letter, a digit and one special character (${PASSWORD_SPECIALS})`,
} as const;

const specialClass = PASSWORD_SPECIALS.replace(/[\\\]\-^]/g, '\\$&');
const passwordRule = new RegExp(`^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[${specialClass}]).*$`);

/** New password (sign-up, reset, change): core §5. */
export const newPasswordSchema = z
  .string()
  .min(1, { message: PASSWORD_MESSAGES.required, abort: true })
  .min(8, { message: PASSWORD_MESSAGES.tooShort, abort: true })
  .max(20, { message: PASSWORD_MESSAGES.tooLong, abort: true })
  .regex(passwordRule, PASSWORD_MESSAGES.rule);

/** Answers of the session calls (logout, log out everywhere, refresh). */
export const SESSION_MESSAGES = {
  loggedOut: 'Logged out',
  loggedOutEverywhere: 'You were logged out on every device.',
  refreshed: 'Session refreshed',
  logoutEverywhereConfirm:
    'Log out everywhere? Every session of your account ends, on this and on every other device, and remembered devices will ask for the second factor again.',
} as const;

/** The plain answer of an action (logout, refresh, second-factor, password and sign-up calls). */
export const actionResultSchema = z.object({ success: z.boolean(), message: z.string() });
export type ActionResult = z.infer<typeof actionResultSchema>;

/** A yes/no answer: GET /api/auth//isSfaAlreadyValidated, POST /api/recaptchaVer3Verify. */
export const successResultSchema = z.object({ success: z.boolean() });
export type SuccessResult = z.infer<typeof successResultSchema>;
