/*
 * The route guard as a pure function of (path, session), so every rule of
 * spec core §4 is unit-tested without a browser:
 * - signed out on a staff route → /LoginPage
 * - signed in (Authorized) on login / sign-up pages → /
 * - second factor pending → only the second-factor pages (else the page for the status)
 * - no role → the "role is not defined" message
 * - role not allowed → /not-authorized; Sys_Admin passes every check
 * - participant pages: allowed here whatever the staff session; the page asks the
 *   server (which refuses any but a participant session) and sends a visitor
 *   without one to /ParticipantLoginPage
 */
import {
  type AuthStatus,
  OPEN_ROUTES,
  PARTICIPANT_ROUTES,
  PUBLIC_ROUTES,
  type Role,
  roleAllows,
  SFA_ROUTES,
  SIGNED_OUT_ONLY_ROUTES,
  STAFF_ROUTES,
} from '@trialwear/contract';

export type GuardSession =
  | { kind: 'signedOut' }
  | { kind: 'partial'; status: Exclude<AuthStatus, 'Authorized'> }
  | { kind: 'authorized'; role: Role | null };

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string }
  | { kind: 'noRole' }
  | { kind: 'notFound' };

export const SFA_PAGE_FOR_STATUS: Record<Exclude<AuthStatus, 'Authorized'>, string> = {
  SFAValidateEmailCodeNeeded: '/SFASendCodeViaMsgPage',
  SFAValidateCodeNeeded: '/SFAValidatePage',
  SFAVerifyCodeNeeded: '/SFAVerifyPage',
  SFAIsNotSet: '/SFASetupPage',
};

/** Where a sign-in with this status leads (core §4). */
export function pageForStatus(status: AuthStatus): string {
  return status === 'Authorized' ? '/' : SFA_PAGE_FOR_STATUS[status];
}

const includes = (list: readonly string[], path: string) => list.includes(path);

export function decideRoute(path: string, session: GuardSession): GuardDecision {
  if (includes(OPEN_ROUTES, path) || includes(PARTICIPANT_ROUTES, path)) return { kind: 'allow' };
  if (includes(PUBLIC_ROUTES, path)) {
    if (session.kind === 'authorized' && includes(SIGNED_OUT_ONLY_ROUTES, path))
      return { kind: 'redirect', to: '/' };
    return { kind: 'allow' };
  }
  const roles = STAFF_ROUTES[path];
  if (!roles) return { kind: 'notFound' };
  if (session.kind === 'signedOut') return { kind: 'redirect', to: '/LoginPage' };
  if (session.kind === 'partial') {
    const target = SFA_PAGE_FOR_STATUS[session.status];
    // A pending second factor may open the second-factor pages only.
    return includes(SFA_ROUTES, path) ? { kind: 'allow' } : { kind: 'redirect', to: target };
  }
  if (session.role === null) return { kind: 'noRole' };
  return roleAllows(session.role, roles) ? { kind: 'allow' } : { kind: 'redirect', to: '/not-authorized' };
}
