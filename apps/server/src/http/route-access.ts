/*
 * The one authorization path. Every /api route gets its guard here, from the
 * contract's API_ACCESS table, at registration: route files declare no
 * guards of their own, and a route missing from the table stops the server
 * from starting (and fails the route-table test). The guard runs as the
 * route's first onRequest hook, before body validation, so a caller without
 * the right gets 401/403, never a validation answer.
 */
import { API_ACCESS, type ApiAccess, type ApiRoute, roleAllows } from '@trialwear/contract';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError, forbidden, notSignedIn, sessionExpired } from '../access/errors.js';

const noSession = (request: FastifyRequest) => (request.authExpired ? sessionExpired() : notSignedIn());

/** The check for one access level (exported for the few places that check by hand, e.g. tests). */
export function checkAccess(request: FastifyRequest, access: ApiAccess) {
  if (access === 'public') return;
  // Participant sessions live in their own cookie and table: request.auth (staff) is never
  // one, so a participant passes no staff check below and a staff session never this one.
  if (access === 'participant') {
    if (!request.participantAuth) throw request.participantAuthExpired ? sessionExpired() : notSignedIn();
    return;
  }
  const auth = request.auth;
  if (!auth) throw noSession(request);
  if (access === 'session') return;
  // Partially signed-in users (second factor pending) get 403 carrying their status, as the spec's session check expects.
  if (auth.status !== 'Authorized')
    throw new AppError(403, auth.status, 'Forbidden', { displayToUser: false, user: auth.user });
  if (access === 'any') return;
  if (!roleAllows(auth.role, access)) throw forbidden();
}

/** `GET /api/x/:id` → its table entry; HEAD shares its GET's entry. */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

export function accessOf(method: string, url: string): ApiAccess | undefined {
  return (API_ACCESS as Record<string, ApiAccess>)[routeKey(method, url)];
}

/** Swagger UI's own routes (the API documentation pages) are public and not API calls. */
const DOCS_PREFIX = '/api/docs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every guarded /api route as its table key, in registration order (read by the route-table test). */
    apiRoutes: string[];
  }
}

export function registerRouteAccess(app: FastifyInstance) {
  const registered: string[] = [];
  app.decorate('apiRoutes', registered);
  app.addHook('onRoute', (route) => {
    if (
      !route.url.startsWith('/api/') ||
      route.url === DOCS_PREFIX ||
      route.url.startsWith(`${DOCS_PREFIX}/`)
    )
      return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const accesses = methods.map((method) => {
      const access = accessOf(method, route.url);
      if (access === undefined)
        throw new Error(
          `${routeKey(method, route.url)} is not in the contract's API_ACCESS table: declare who may call it`,
        );
      return access;
    });
    const access = accesses[0]!;
    for (const method of methods) if (method !== 'HEAD') registered.push(routeKey(method, route.url));
    if (accesses.some((a) => a !== access))
      throw new Error(`${route.url}: one route with several methods must have one access level`);
    // Callback style, not async: it runs on every request and never waits for anything (bench/load).
    const guard: onRequestHookHandler = (request, _reply, done) => {
      try {
        checkAccess(request, access);
      } catch (err) {
        done(err as Error);
        return;
      }
      done();
    };
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [guard, ...own];
  });
}

export type { ApiRoute };
