import { z } from 'zod';

/** Contact form (core §5) with the exact messages. Used by the form and by POST /api/contactUs. */
export const CONTACT_MESSAGES = {
  firstNameRequired: 'First Name is required',
  lastNameRequired: 'Last name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  subjectRequired: 'Subject is required',
  messageRequired: 'Message is required',
  sent: 'Message sent. Thank you!',
  failed: 'Message could not be sent!',
} as const;

/** Length messages are ours (the spec gives the ranges, not the texts). */
const lengthMessage = (field: string, min: number, max: number) =>
  `${field} must be between ${min} and ${max} characters`;

export const emailSchema = z
  .string()
  .trim()
  .min(1, { message: CONTACT_MESSAGES.emailRequired, abort: true })
  .pipe(z.email(CONTACT_MESSAGES.emailInvalid));

function requiredText(required: string, field: string, min: number, max: number) {
  return z
    .string()
    .trim()
    .min(1, { message: required, abort: true })
    .min(min, lengthMessage(field, min, max))
    .max(max, lengthMessage(field, min, max));
}

export const contactFormSchema = z.object({
  firstName: requiredText(CONTACT_MESSAGES.firstNameRequired, 'First name', 2, 50),
  lastName: requiredText(CONTACT_MESSAGES.lastNameRequired, 'Last name', 2, 50),
  email: emailSchema,
  subject: requiredText(CONTACT_MESSAGES.subjectRequired, 'Subject', 3, 50),
  message: requiredText(CONTACT_MESSAGES.messageRequired, 'Message', 10, 300),
});
export type ContactForm = z.infer<typeof contactFormSchema>;

export const contactRequestSchema = contactFormSchema.extend({
  recaptchaResponse: z.string().optional().default(''),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;

/** POST /api/contactUs */
export const contactResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  id: z.number(),
});
export type ContactResult = z.infer<typeof contactResultSchema>;
