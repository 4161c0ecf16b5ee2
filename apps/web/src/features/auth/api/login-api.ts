import type { AuthResponse } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const login = (username: string, password: string, recaptchaResponse: string) =>
  api.post<AuthResponse>('/auth/login', { username, password, recaptchaResponse });
