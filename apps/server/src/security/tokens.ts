/*
 * Random tokens of which the database keeps only the SHA-256: single-use
 * links (reset, sign-up, e-mail confirmation) and session cookies, staff and
 * participant alike. A reader of the database holds no usable link or cookie.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A random single-use token for a link (reset, sign-up); only its hash is stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = newSessionToken();
  return { token, hash: hashToken(token) };
}

/** A new session's cookie token; its row is keyed by hashToken(token). */
export const newSessionToken = () => randomBytes(32).toString('base64url');

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

// NIST 800-63B AAL2: re-authentication after 30 minutes idle or 12 hours, for staff and
// participant sessions. The open SPA refreshes every 15 minutes, so only an abandoned session idles out.
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
