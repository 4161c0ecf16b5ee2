/*
 * One guard for the text of every /api request: no string in the body, the
 * query string or the path may hold a control character (NUL, which
 * PostgreSQL refuses in text, and the other C0/C1 characters). Multi-line
 * fields (notes, the contact message: the contract's MULTILINE_FIELDS) may
 * hold tab, newline and carriage return.
 *
 * Why a preValidation hook and not a zod refinement on each string schema:
 * the hook sees every string of the request whatever its schema says
 * (fields a schema passes through as unknown, union members, query strings
 * and path parameters alike), so no schema written later can forget it. It
 * runs after the route's access guard and CSRF check (onRequest: a caller
 * without the right still gets 401/403 first) and before the schema.
 */
import { hasControlCharacters, INPUT_MESSAGES, MULTILINE_FIELDS } from '@trialwear/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../access/errors.js';
import { routeKey } from './route-access.js';

/** The path of the first string holding a control character, or null. Iterative: a deeply nested body cannot overflow the stack. */
export function findControlCharacter(
  value: unknown,
  multiLineKeys: readonly string[] = [],
  root = '',
): string | null {
  const stack: Array<{ value: unknown; path: string; multiLine: boolean }> = [
    { value, path: root, multiLine: false },
  ];
  while (stack.length) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === 'string') {
      if (hasControlCharacters(v, item.multiLine)) return item.path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], path: join(item.path, String(i)), multiLine: item.multiLine });
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        const topLevel = item.path === root;
        stack.push({
          value: child,
          path: join(item.path, key),
          multiLine: item.multiLine || (topLevel && multiLineKeys.includes(key)),
        });
      }
    }
  }
  return null;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

function refuse(path: string): never {
  throw new AppError(400, INPUT_MESSAGES.controlCharacters, 'ValidationError', {
    displayToUser: true,
    errors: [{ path, message: INPUT_MESSAGES.controlCharacters }],
  });
}

export function checkRequestText(request: FastifyRequest) {
  const url = request.routeOptions.url;
  const multiLine =
    (url && MULTILINE_FIELDS[routeKey(request.method, url) as keyof typeof MULTILINE_FIELDS]) || [];
  const inParams = findControlCharacter(request.params, [], 'params');
  if (inParams) refuse(inParams);
  const inQuery = findControlCharacter(request.query, [], 'query');
  if (inQuery) refuse(inQuery);
  // Body paths as the schema's errors give them (no prefix): `notes`, `participantData.state`.
  const inBody = findControlCharacter(request.body, multiLine);
  if (inBody !== null) refuse(inBody || 'body');
}

export function registerInputGuard(app: FastifyInstance) {
  // Callback style, not async: on every request, and nothing to wait for.
  app.addHook('preValidation', (request, _reply, done) => {
    if (!request.url.startsWith('/api/')) return done();
    try {
      checkRequestText(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
