/*
 * The session calls the whole app depends on: who is signed in (with a
 * pending second factor kept as a partial session), refresh and logout.
 */
import type {
  ActionResult,
  AuthResponse,
  AuthStatus,
  SessionCheckResponse,
  SessionUser,
} from '@trialwear/contract';
import { AUTH_STATUSES } from '@trialwear/contract';
import { ApiRequestError, api } from '../api-client';

export type SessionState =
  | { kind: 'loading' }
  | { kind: 'signedOut' }
  | { kind: 'partial'; status: Exclude<AuthStatus, 'Authorized'>; user: SessionUser }
  | { kind: 'authorized'; user: SessionUser };

export function stateFromAuth(res: AuthResponse): SessionState {
  return res.message === 'Authorized'
    ? { kind: 'authorized', user: res.user }
    : { kind: 'partial', status: res.message, user: res.user };
}

/**
 * Session check (core §4): 200 → the user (or 'NotSignedIn', the server's
 * answer without a session, so that no signed-out page load logs an error); a 403 carrying one of the status
 * messages keeps the partial user with that status; anything else signs out.
 */
export async function fetchSession(): Promise<SessionState> {
  try {
    const res = await api.get<SessionCheckResponse>('/auth/user');
    return res.user === null ? { kind: 'signedOut' } : stateFromAuth(res);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 403 && err.body?.user) {
      const status = AUTH_STATUSES.find((s) => s === err.body?.message);
      if (status && status !== 'Authorized')
        return { kind: 'partial', status, user: err.body.user as SessionUser };
    }
    return { kind: 'signedOut' };
  }
}

export const logout = () => api.post<ActionResult>('/auth/logout');
/** Ends every session of the user, this one included (the caller then signs out locally). */
export const logoutEverywhere = () => api.post<ActionResult>('/auth/logoutEverywhere');
export const refreshSession = () => api.post<ActionResult>('/auth/refreshToken');
