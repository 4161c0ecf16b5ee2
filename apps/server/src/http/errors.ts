/*
 * Every error answer has the spec's shape {message, displayToUser, reason,
 * location, errors, user}. Services throw AppError; the error handler turns
 * anything else (validation, database, unexpected) into the same shape
 * without leaking internals.
 */
import type { ApiError, ErrorReason } from '@trialwear/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly reason: ErrorReason,
    readonly options: { displayToUser?: boolean; errors?: ApiError['errors']; user?: unknown } = {},
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

export function errorBody(request: FastifyRequest, err: AppError): ApiError {
  return {
    message: err.message,
    displayToUser: err.options.displayToUser ?? false,
    reason: err.reason,
    location: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
    errors: err.options.errors ?? [],
    user: err.options.user ?? null,
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError) {
  return reply.status(err.statusCode).send(errorBody(request, err));
}

/** Map anything thrown in a handler to an AppError. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError & { code?: string };
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const errors = fe.validation.map((v) => ({
      path: String(v.instancePath ?? '')
        .replace(/^\//, '')
        .replaceAll('/', '.'),
      message: v.message ?? 'Invalid value',
    }));
    return new AppError(400, errors[0]?.message ?? 'Validation failed', 'ValidationError', {
      displayToUser: true,
      errors,
    });
  }
  if (fe.statusCode === 429) {
    return new AppError(429, 'Too Many Requests', 'RateLimited', { displayToUser: true });
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own client errors (bad JSON, body too large, unsupported media type…).
    return new AppError(fe.statusCode, fe.message, 'ValidationError', { displayToUser: false });
  }
  if (typeof fe.code === 'string' && /^[0-9A-Z]{5}$/.test(fe.code)) {
    return new AppError(500, 'Database error', 'DBError', { displayToUser: false });
  }
  return new AppError(500, 'Internal server error', 'InternalError', { displayToUser: false });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The error this request was answered with, if any (read by the access-denial audit). */
    answeredWith: AppError | null;
  }
}

export function registerErrorHandling(app: FastifyInstance) {
  app.decorateRequest('answeredWith', null);
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    request.answeredWith = appError;
    if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ reason: appError.reason, status: appError.statusCode }, appError.message);
    return sendError(request, reply, appError);
  });
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, new AppError(404, 'Not found', 'NotFound', { displayToUser: false }));
}
