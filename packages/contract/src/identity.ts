/*
 * Second factor, passwords, sign-up and approval (core §5, §7, §8; admin
 * sign-up approval) with the spec's exact messages. Used by the forms and by
 * the server's validation.
 */
import { z } from 'zod';
import { actionResultSchema, authStatusSchema, newPasswordSchema } from './auth.js';
import { emailSchema } from './contact.js';
import { idSchemaWith } from './ids.js';

export const SFA_MESSAGES = {
  required: 'SFA Code is required',
  digits: 'Code must be only digits',
  length: 'Code must be exactly 6 digits',
  sendFailed: 'Sending code by email failed!',
  locked: 'Account locked due to too many failed attempts',
  validateFailed: 'Error: validating sfa token request failed!',
  alreadyValidated: 'The second factor is already validated for this session.',
  invalidCode: 'The code is not valid. Please try again.',
  invalidQr: 'Error: Invalid QR code received from server',
  invalidKey: 'Error: Invalid SFA key received from server',
  rememberDevice: 'Remember this device for 48 hours',
  codeSent: 'A 6-digit code was sent to your email address. It expires in 10 minutes.',
} as const;

/** The server's reason for a locked account: the UI logs out with SFA_MESSAGES.locked. */
export const ACCOUNT_LOCKED = 'ACCOUNT_LOCKED';

export const sfaCodeSchema = z
  .string()
  .trim()
  .min(1, { message: SFA_MESSAGES.required, abort: true })
  .regex(/^\d+$/, { message: SFA_MESSAGES.digits, abort: true })
  .length(6, SFA_MESSAGES.length);

export const verifyTotpSchema = z.object({ sfaToken: sfaCodeSchema });
export const validateTotpSchema = z.object({
  sfaToken: sfaCodeSchema,
  skipSFA: z.boolean().optional().default(false),
});

/** Setup QR: a data image, a relative path or an https URL; key: base32 (core §5). */
export function isValidSetupQr(qr: unknown): boolean {
  return (
    typeof qr === 'string' &&
    (/^data:image\/[a-z+]+;base64,[A-Za-z0-9+/=]+$/.test(qr) ||
      /^\/(?!\/)/.test(qr) ||
      /^https:\/\//.test(qr))
  );
}
export function isValidSetupKey(key: unknown): boolean {
  return typeof key === 'string' && /^[A-Z2-7]+=*$/.test(key) && key.length >= 16;
}

export const PASSWORD_FLOW_MESSAGES = {
  currentRequired: 'Current password is required',
  confirmRequired: 'Password confirmation is required',
  signupMismatch: 'The 2 Passwords must match',
  resetMismatch: 'Passwords must match',
  changeMismatch: '2 New Passwords must match',
  changeFailed: 'Unable to change password. Please try again.',
  wrongCurrent: 'The current password is not correct.',
  resetKeyMissing: 'Error: Reset key is missing!',
  resetValidationFailed: 'Error: reset password validation failed!',
  resetFailed: 'Error: reset password failed!',
  resetLinkInvalid: 'This reset link is invalid or has expired.',
  newPasswordSet: 'New password set successfully!',
  resetRequested:
    'We received your reset password request. If we have your email on file we will send you a reset email.',
} as const;

export const forgotPasswordSchema = z.object({
  email: emailSchema,
  recaptchaResponse: z.string().optional().default(''),
});

const confirmation = z.string().min(1, PASSWORD_FLOW_MESSAGES.confirmRequired);

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, PASSWORD_FLOW_MESSAGES.resetKeyMissing),
    newPassword: newPasswordSchema,
    newConfirmPassword: confirmation,
  })
  .refine((v) => v.newPassword === v.newConfirmPassword, {
    path: ['newConfirmPassword'],
    message: PASSWORD_FLOW_MESSAGES.resetMismatch,
  });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, PASSWORD_FLOW_MESSAGES.currentRequired),
    newPassword: newPasswordSchema,
    newConfirmPassword: confirmation,
  })
  .refine((v) => v.newPassword === v.newConfirmPassword, {
    path: ['newConfirmPassword'],
    message: PASSWORD_FLOW_MESSAGES.changeMismatch,
  });

/** POST /api/auth/resetSFA: replacing the second factor needs the current password. */
export const resetSfaSchema = z.object({
  currentPassword: z
    .string({ message: PASSWORD_FLOW_MESSAGES.currentRequired })
    .min(1, PASSWORD_FLOW_MESSAGES.currentRequired),
});
export type ResetSfaRequest = z.infer<typeof resetSfaSchema>;

/** Texts of the Reset Second Factor confirmation (profile menu). */
export const RESET_SFA_MESSAGES = {
  title: 'Reset second factor?',
  confirm: 'Remove your authenticator and set up a new one? Enter your current password to confirm.',
  failed: 'Error: resetting the second factor failed!',
} as const;

export const SIGNUP_MESSAGES = {
  firstNameRequired: 'First Name is required',
  lastNameRequired: 'Last name is required',
  usernameRequired: 'Username is required',
  acceptTerms: 'Accept Terms is required',
  acceptPrivacy: 'Accept Privacy Policy is required',
  unsuccessful: 'Signup unsuccessful',
  failed: 'Signup failed',
  failedRetry: 'Signup failed. Please try again.',
  keyMissing: 'Error: key is missing!',
  linkInvalid: 'This sign-up link is invalid, used or expired.',
  success: 'Your account was created. You can now log in.',
  approvalSent: 'Sending sign-up approval to the user was successful.',
  approvalFailed: 'Error: sign-up approval failed!',
  teamRequired: 'Team is required',
  usernameTaken: 'This username is already taken.',
  emailTaken: 'An account with this email already exists.',
} as const;

export const SIGNUP_ROLES = ['Viewer', 'User', 'Admin'] as const;

export const approveSignupSchema = z.object({
  email: emailSchema,
  role: z.enum(SIGNUP_ROLES),
  teamId: idSchemaWith(SIGNUP_MESSAGES.teamRequired),
  teamName: z.string().optional().default(''),
});

export const signupFormSchema = z
  .object({
    firstName: z.string().trim().min(1, SIGNUP_MESSAGES.firstNameRequired).max(50),
    lastName: z.string().trim().min(1, SIGNUP_MESSAGES.lastNameRequired).max(50),
    username: z
      .string()
      .trim()
      .min(1, { message: SIGNUP_MESSAGES.usernameRequired, abort: true })
      .regex(/^[A-Za-z0-9._-]{3,50}$/, 'Username: 3-50 letters, digits, dot, dash or underscore'),
    password: newPasswordSchema,
    confirmPassword: confirmation,
    organization: z.string().trim().max(100).optional().default(''),
    acceptTerms: z.literal(true, { message: SIGNUP_MESSAGES.acceptTerms }),
    acceptPrivacy: z.literal(true, { message: SIGNUP_MESSAGES.acceptPrivacy }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORD_FLOW_MESSAGES.signupMismatch,
  });

/** POST /api/users/signup: the form plus the invitation token; email, team and role come from the token. */
export const signupRequestSchema = z.intersection(
  signupFormSchema,
  z.object({
    token: z.string().min(1, SIGNUP_MESSAGES.keyMissing),
    email: z.string().optional(),
    teamId: z.unknown().optional(),
    teamName: z.string().optional(),
    role: z.string().optional(),
    recaptchaResponse: z.string().optional().default(''),
  }),
);

export const participantSignupSchema = z
  .object({
    username: z
      .string()
      .trim()
      .min(1, { message: SIGNUP_MESSAGES.usernameRequired, abort: true })
      .regex(/^[A-Za-z0-9._-]{3,50}$/, 'Username: 3-50 letters, digits, dot, dash or underscore'),
    password: newPasswordSchema,
    confirmPassword: confirmation,
    email: emailSchema,
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORD_FLOW_MESSAGES.signupMismatch,
  });

/*
 * Answers of the second-factor, password and sign-up calls, exactly as the
 * server's routes declare them, and the messages the server sends in them.
 */
export const SFA_RESULT_MESSAGES = {
  authenticatorSet: 'Your authenticator is set up. Please log in again.',
} as const;

/**
 * The participant sign-up answers the same whether or not the email (or the
 * username) already has an account: what happened is told by email, to the
 * address given.
 */
export const PARTICIPANT_SIGNUP_MESSAGES = {
  received: 'Thank you. We sent a message about your participant account to your email address.',
} as const;

/** GET /api/auth/secondFactorSetup */
export const sfaSetupSchema = z.object({ qrImage: z.string(), key: z.string() });
export type SfaSetup = z.infer<typeof sfaSetupSchema>;

/** POST /api/auth/resetSFA: the status the session is in afterwards. */
export const resetSfaResultSchema = z.object({ message: authStatusSchema });
export type ResetSfaResult = z.infer<typeof resetSfaResultSchema>;

/** POST /api/auth/resetPasswordValidation */
export const resetPasswordValidationResultSchema = z.object({ userId: z.number() });
export type ResetPasswordValidationResult = z.infer<typeof resetPasswordValidationResultSchema>;

/** POST /api/userSignUpPermission/signupRequestValidation: what the emailed sign-up link grants. */
export const signupInvitationSchema = z.object({
  email: z.string(),
  role: z.string(),
  teamId: z.number(),
  teamName: z.string(),
});
export type SignupInvitation = z.infer<typeof signupInvitationSchema>;

/** POST /api/users/signup */
export const signupResultSchema = actionResultSchema.extend({ data: z.object({ redirectTo: z.string() }) });
export type SignupResult = z.infer<typeof signupResultSchema>;

/** POST /api/Participants/signup: no id, the same answer for a new and an existing account. */
export const participantSignupResultSchema = actionResultSchema;
export type ParticipantSignupResult = z.infer<typeof participantSignupResultSchema>;

/*
 * Locked accounts (issue #9): a Sys_Admin sees the locked accounts of the
 * teams they administer and may unlock them (beside the CLI's unlock-user).
 */
export const LOCKOUT_MESSAGES = {
  unlocked: 'The account was unlocked.',
  notLocked: 'This account is not locked.',
  unlockFailed: 'Error: unlocking the account failed!',
  noneLocked: 'No locked accounts',
  /** Under the lock message at sign-in: the same text whether or not the username has an account. */
  loginHint:
    'The lock ends by itself after a while. If this is your account, we emailed you a link to reset your password, which also unlocks it.',
} as const;

/** GET /api/users/locked */
export const lockedUserSchema = z.object({
  id: z.number(),
  userName: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** ISO instant the lock ends by itself. */
  locked_until: z.string(),
  /** The locks in a row (each doubles the next one's length). */
  lock_count: z.number(),
  /** The teams (administered by the caller) the user belongs to. */
  teams: z.array(z.string()),
});
export type LockedUser = z.infer<typeof lockedUserSchema>;
