import { PUBLIC_ROUTES, ROLES, SFA_ROUTES, STAFF_ROUTES } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { decideRoute, pageForStatus } from './route-guard';

const signedOut = { kind: 'signedOut' } as const;
const as = (role: (typeof ROLES)[number] | null) => ({ kind: 'authorized', role }) as const;

describe('route guard (spec core §4)', () => {
  it('signed out: every staff route goes to /LoginPage; public routes open', () => {
    for (const path of Object.keys(STAFF_ROUTES))
      expect(decideRoute(path, signedOut)).toEqual({ kind: 'redirect', to: '/LoginPage' });
    for (const path of PUBLIC_ROUTES) expect(decideRoute(path, signedOut)).toEqual({ kind: 'allow' });
  });

  it('participant pages are left to the page (the server checks the participant session), whatever the staff session', () => {
    for (const s of [signedOut, as('Viewer'), as('Sys_Admin')])
      expect(decideRoute('/ParticipantHome', s)).toEqual({ kind: 'allow' });
  });

  it('signed in: login and sign-up pages go home; the contact form stays open', () => {
    for (const path of ['/LoginPage', '/SignupPage', '/SignupValidation']) {
      expect(decideRoute(path, as('Viewer'))).toEqual({ kind: 'redirect', to: '/' });
    }
    expect(decideRoute('/ContactUsForm/', as('Viewer'))).toEqual({ kind: 'allow' });
    expect(decideRoute('/not-authorized', as('Viewer'))).toEqual({ kind: 'allow' });
  });

  it('each staff route allows exactly its roles; Sys_Admin passes all', () => {
    for (const [path, roles] of Object.entries(STAFF_ROUTES)) {
      for (const role of ROLES) {
        const expected =
          role === 'Sys_Admin' || roles.includes(role)
            ? { kind: 'allow' }
            : { kind: 'redirect', to: '/not-authorized' };
        expect(decideRoute(path, as(role)), `${role} ${path}`).toEqual(expected);
      }
    }
  });

  it('a user without role sees the "role is not defined" message', () => {
    expect(decideRoute('/', as(null))).toEqual({ kind: 'noRole' });
    expect(decideRoute('/DbInfoPage', as(null))).toEqual({ kind: 'noRole' });
  });

  it('a pending second factor reaches only the second-factor pages', () => {
    const partial = { kind: 'partial', status: 'SFAValidateCodeNeeded' } as const;
    for (const path of SFA_ROUTES) expect(decideRoute(path, partial)).toEqual({ kind: 'allow' });
    expect(decideRoute('/', partial)).toEqual({ kind: 'redirect', to: '/SFAValidatePage' });
    expect(decideRoute('/DbInfoPage', { kind: 'partial', status: 'SFAIsNotSet' })).toEqual({
      kind: 'redirect',
      to: '/SFASetupPage',
    });
  });

  it('unknown paths are not found', () => {
    expect(decideRoute('/nope', as('Sys_Admin'))).toEqual({ kind: 'notFound' });
  });

  it('sign-in statuses lead to their pages', () => {
    expect(pageForStatus('Authorized')).toBe('/');
    expect(pageForStatus('SFAValidateEmailCodeNeeded')).toBe('/SFASendCodeViaMsgPage');
    expect(pageForStatus('SFAValidateCodeNeeded')).toBe('/SFAValidatePage');
    expect(pageForStatus('SFAVerifyCodeNeeded')).toBe('/SFAVerifyPage');
    expect(pageForStatus('SFAIsNotSet')).toBe('/SFASetupPage');
  });
});
