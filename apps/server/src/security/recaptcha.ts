/*
 * reCAPTCHA v3. With RECAPTCHA_SECRET set, tokens are verified with Google's
 * siteverify endpoint (score at least RECAPTCHA_MIN_SCORE). Without it,
 * verification is off and the server warns once at start.
 */
import { AppError } from '../access/errors.js';

export interface RecaptchaVerifier {
  enabled: boolean;
  verify(token: string, remoteIp?: string): Promise<boolean>;
}

export function createRecaptchaVerifier(opts: {
  secret?: string;
  minScore: number;
  verifyUrl: string;
}): RecaptchaVerifier {
  const { secret } = opts;
  if (!secret) return { enabled: false, verify: async () => true };
  return {
    enabled: true,
    async verify(token, remoteIp) {
      if (!token) return false;
      const body = new URLSearchParams({ secret, response: token });
      if (remoteIp) body.set('remoteip', remoteIp);
      try {
        const res = await fetch(opts.verifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(8000) });
        if (!res.ok) return false;
        const data = (await res.json()) as { success?: boolean; score?: number };
        return data.success === true && (data.score === undefined || data.score >= opts.minScore);
      } catch {
        return false;
      }
    },
  };
}

/** Refuses the call (400, shown to the user) unless the token passes. */
export async function requireRecaptcha(verifier: RecaptchaVerifier, token: string, remoteIp?: string) {
  if (!(await verifier.verify(token, remoteIp))) {
    throw new AppError(400, 'reCAPTCHA verification failed', 'RecaptchaFailed', { displayToUser: true });
  }
}
