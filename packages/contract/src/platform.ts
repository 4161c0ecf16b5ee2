/** Platform calls every page relies on: CSRF token, version, public configuration. */
import { z } from 'zod';

/** Double-submit CSRF: the readable cookie and the header every write repeats it in. */
export const CSRF_COOKIE = 'tw_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** GET /api/csrf-token */
export const csrfTokenSchema = z.object({ csrfToken: z.string() });
export type CsrfToken = z.infer<typeof csrfTokenSchema>;

/** GET /api/appVersion */
export const appVersionSchema = z.object({ data: z.string() });
export type AppVersion = z.infer<typeof appVersionSchema>;

/** GET /api/publicConfig: a null site key means reCAPTCHA is off. */
export const publicConfigSchema = z.object({ version: z.string(), recaptchaSiteKey: z.string().nullable() });
export type PublicConfig = z.infer<typeof publicConfigSchema>;
