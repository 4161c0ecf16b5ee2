import type {
  ActionResult,
  changePasswordSchema,
  ResetPasswordValidationResult,
  resetPasswordSchema,
} from '@trialwear/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export const requestPasswordReset = (email: string, recaptchaResponse: string) =>
  api.post<ActionResult>('/auth/forgotPassword', { email, recaptchaResponse });

export const validateResetToken = (token: string) =>
  api.post<ResetPasswordValidationResult>('/auth/resetPasswordValidation', { token });

export const resetPassword = (form: z.input<typeof resetPasswordSchema>) =>
  api.post<ActionResult>('/auth/resetPassword', form);

export const changePassword = (form: z.input<typeof changePasswordSchema>) =>
  api.post<ActionResult>('/auth/changePwdReq', form);
