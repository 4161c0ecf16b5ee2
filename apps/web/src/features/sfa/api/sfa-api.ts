import type { ActionResult, AuthResponse, ResetSfaResult, SfaSetup } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const getSetup = () => api.get<SfaSetup>('/auth/secondFactorSetup');
export const verifyTotp = (sfaToken: string) => api.post<ActionResult>('/auth/verifyTOTP', { sfaToken });
export const validateTotp = (sfaToken: string, skipSFA: boolean) =>
  api.post<AuthResponse>('/auth/validateTOTP', { sfaToken, skipSFA });
export const sendEmailCode = () => api.post<ActionResult>('/auth/generateSendEmailTOTP');
export const resetSfa = (currentPassword: string) =>
  api.post<ResetSfaResult>('/auth/resetSFA', { currentPassword });
