/*
 * The errors a rule answers with, in the spec's terms (status, message,
 * reason). Services and the access rules throw them; http/errors.ts turns
 * them (and anything else thrown) into the spec's error body.
 */
import type { ApiError, ErrorReason } from '@trialwear/contract';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly reason: ErrorReason,
    readonly options: {
      displayToUser?: boolean;
      errors?: ApiError['errors'];
      user?: unknown;
      /** Headers the answer carries (e.g. a provider's Retry-After passed on with our 429). */
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new AppError(404, what, 'NotFound', { displayToUser: true });
export const forbidden = (message = 'Unauthorized') =>
  new AppError(403, message, 'Forbidden', { displayToUser: true });
export const notSignedIn = () => new AppError(401, 'Not signed in', 'NotSignedIn', { displayToUser: false });
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
/** The session existed but ran out (30 minutes idle or 12 hours): tell the person, unlike a plain 401. */
export const sessionExpired = () =>
  new AppError(401, SESSION_EXPIRED_MESSAGE, 'NotSignedIn', { displayToUser: true });

/** What node-postgres gives of a refused statement. */
export interface PgError {
  code: string;
  constraint?: string;
  detail?: string;
}

/** Is this a PostgreSQL error with this SQLSTATE (and, if given, on this constraint)? */
export function isPgError(err: unknown, code: string, constraint?: string): err is PgError {
  const e = err as Partial<PgError> | null;
  return !!e && e.code === code && (constraint === undefined || e.constraint === constraint);
}
