import type { ContactForm } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const sendContactMessage = (form: ContactForm, recaptchaResponse: string) =>
  api.post<{ success: true; message: string; id: number }>('/contactUs', { ...form, recaptchaResponse });
