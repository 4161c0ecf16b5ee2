/*
 * The one way the SPA talks to the API: cookies included, the CSRF header on
 * every write (JSON, or a FormData upload as multipart), and errors turned into ApiRequestError carrying the server's
 * error shape. Only messages flagged displayToUser are ever shown as is.
 */
import {
  type ApiError,
  apiErrorSchema,
  CSRF_HEADER,
  type CsrfToken,
  cookieName,
  GENERIC_ERRORS,
} from '@trialwear/contract';
import { serviceStatus } from './service-status';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | null,
  ) {
    super(body?.message ?? `Request failed (${status})`);
  }
}

/** The request never reached the server (offline, DNS, server down). */
export class NetworkError extends Error {}

function readCookie(name: string): string | undefined {
  return document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

let csrfRequest: Promise<string> | undefined;
async function csrfToken(): Promise<string> {
  // `__Host-` prefixed when the portal is served over https (see the contract's cookieName).
  const fromCookie = readCookie(cookieName('csrf', true)) ?? readCookie(cookieName('csrf', false));
  if (fromCookie) return decodeURIComponent(fromCookie);
  csrfRequest ??= fetch('/api/csrf-token', { credentials: 'include' })
    .then((r) => r.json() as Promise<CsrfToken>)
    .then((b) => b.csrfToken)
    .finally(() => {
      csrfRequest = undefined;
    });
  return csrfRequest;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function apiRequest<T>(
  method: Method,
  path: string,
  body?: unknown,
  opts: { csrf?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // A FormData body (a file upload) is sent as multipart: the browser writes its content type and boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  if (method !== 'GET' || opts.csrf) headers[CSRF_HEADER] = await csrfToken();
  for (;;) {
    // A read waits while the portal is known to be unavailable (the banner says so) rather than
    // failing into an error in its widget; it runs once /api/ready answers again.
    if (method === 'GET') await serviceStatus.whenAvailable();
    let res: Response;
    try {
      res = await fetch(`/api${path}`, {
        method,
        headers,
        credentials: 'include',
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      });
    } catch (err) {
      throw new NetworkError((err as Error).message);
    }
    const text = await res.text();
    const json = text ? safeJson(text) : null;
    if (res.ok) return json as T;
    const parsed = apiErrorSchema.safeParse(json);
    const error = new ApiRequestError(res.status, parsed.success ? parsed.data : null);
    if (res.status !== 503 || error.body?.reason !== 'ServiceUnavailable') throw error;
    serviceStatus.markUnavailable(Number(res.headers.get('retry-after')) || undefined);
    // A write is not repeated behind the person's back: it fails with the message, and they decide.
    if (method !== 'GET') throw error;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  /** A GET that changes state (a quirk of the spec's paths) carries the CSRF header too. */
  getWithCsrf: <T>(path: string) => apiRequest<T>('GET', path, undefined, { csrf: true }),
  post: <T>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body),
  put: <T>(path: string, body: unknown = {}) => apiRequest<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown = {}) => apiRequest<T>('PATCH', path, body),
  delete: <T>(path: string, body: unknown = {}) => apiRequest<T>('DELETE', path, body),
};

/** The server's message when it is meant for people; otherwise the given fallback. */
export function displayableMessage(err: unknown, fallback: string = GENERIC_ERRORS.anError): string {
  if (err instanceof ApiRequestError && err.body?.displayToUser) return err.body.message;
  return fallback;
}
