/*
 * TOTP (RFC 6238, 30-second steps, one step of drift allowed) on the
 * injected clock. checkStep returns the time step a code belongs to, so the
 * caller can refuse a step already used (a code works once: ASVS 2.8.4).
 */
import { authenticator } from 'otplib';

const STEP_SECONDS = 30;

export function generateTotpSecret(): string {
  return authenticator.generateSecret(20); // 160 bits, 32 base32 characters
}

export function otpauthUrl(secret: string, username: string): string {
  return authenticator.keyuri(username, 'TrialWear', secret);
}

export function checkStep(code: string, secret: string, now: Date): number | null {
  const at = authenticator.clone({ epoch: now.getTime(), window: 1 });
  const delta = at.checkDelta(code, secret);
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / STEP_SECONDS) + delta;
}

/** The code for a moment (tests and tools). */
export function totpAt(secret: string, now: Date): string {
  return authenticator.clone({ epoch: now.getTime() }).generate(secret);
}
