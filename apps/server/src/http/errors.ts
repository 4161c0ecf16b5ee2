/*
 * Every error answer has the spec's shape {message, displayToUser, reason,
 * location, errors, user}. Services throw AppError; the error handler turns
 * anything else (validation, database, unexpected) into the same shape
 * without leaking internals.
 */
import { type ApiError, type ErrorReason, SERVICE_UNAVAILABLE } from '@trialwear/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type PgError } from '../access/errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';

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
  if (err.options.headers) reply.headers(err.options.headers);
  return reply.status(err.statusCode).send(errorBody(request, err));
}

export const DATABASE_MESSAGES = {
  duplicate: 'This record already exists.',
  referenceMissing: 'A record this request refers to does not exist (any more).',
  stillReferenced: 'This record is still in use and cannot be removed.',
  invalidValue: 'A value in the request is not valid.',
  concurrent: 'The record was changed by another request at the same time. Please try again.',
  failed: 'Database error',
} as const;

/**
 * The safety net for database refusals a service did not map to its own
 * message (services keep their specific 404/409s; this only stops a race or
 * an unforeseen value from becoming a 500): a duplicate is a 409, a missing
 * reference a 404, a reference still in use a 409, a value the column cannot
 * hold a 400, a lost race a 409. Anything else stays a 500.
 */
export function databaseError(e: PgError): AppError {
  const fail = (status: number, message: string, reason: ErrorReason) =>
    new AppError(status, message, reason, { displayToUser: status < 500 });
  switch (e.code) {
    case '23505': // unique_violation
      return fail(409, DATABASE_MESSAGES.duplicate, 'Conflict');
    case '23503': // foreign_key_violation: a parent gone (insert/update) or a child left (delete)
      return /still referenced/.test(e.detail ?? '')
        ? fail(409, DATABASE_MESSAGES.stillReferenced, 'Conflict')
        : fail(404, DATABASE_MESSAGES.referenceMissing, 'NotFound');
    case '23502': // not_null_violation
    case '23514': // check_violation
    case '22001': // string_data_right_truncation (too long)
    case '22003': // numeric_value_out_of_range
    case '22021': // character_not_in_repertoire (e.g. NUL in text)
    case '22P05': // untranslatable_character
    case '22P02': // invalid_text_representation
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
      return fail(400, DATABASE_MESSAGES.invalidValue, 'ValidationError');
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return fail(409, DATABASE_MESSAGES.concurrent, 'Conflict');
    default:
      return fail(500, DATABASE_MESSAGES.failed, 'DBError');
  }
}

/** The database is out of reach: 503 with Retry-After, a message people may read (issue 27). */
export const serviceUnavailable = () =>
  new AppError(503, SERVICE_UNAVAILABLE.message, 'ServiceUnavailable', {
    displayToUser: true,
    headers: { 'retry-after': String(SERVICE_UNAVAILABLE.retryAfterSeconds) },
  });

/** Map anything thrown in a handler to an AppError. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return serviceUnavailable();
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
    return databaseError(fe as PgError);
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
    // An outage fails every request: one short line each, not a stack trace each.
    if (appError.reason === 'ServiceUnavailable')
      request.log.warn({ code: (error as { code?: string }).code }, 'database unavailable');
    else if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ reason: appError.reason, status: appError.statusCode }, appError.message);
    return sendError(request, reply, appError);
  });
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, new AppError(404, 'Not found', 'NotFound', { displayToUser: false }));
}
