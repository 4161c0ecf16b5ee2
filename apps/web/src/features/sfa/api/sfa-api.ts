import type { AuthResponse } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const getSetup = () => api.get<{ qrImage: string; key: string }>('/auth/secondFactorSetup');
export const verifyTotp = (sfaToken: string) =>
  api.post<{ success: boolean; message: string }>('/auth/verifyTOTP', { sfaToken });
export const validateTotp = (sfaToken: string, skipSFA: boolean) =>
  api.post<AuthResponse>('/auth/validateTOTP', { sfaToken, skipSFA });
export const sendEmailCode = () =>
  api.post<{ success: boolean; message: string }>('/auth/generateSendEmailTOTP');
export const resetSfa = () => api.post<{ message: string }>('/auth/resetSFA');
