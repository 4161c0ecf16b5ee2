import type { ContactForm, ContactResult } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const sendContactMessage = (form: ContactForm, recaptchaResponse: string) =>
  api.post<ContactResult>('/contactUs', { ...form, recaptchaResponse });
