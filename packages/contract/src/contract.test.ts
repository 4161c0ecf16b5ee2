import { describe, expect, it } from 'vitest';
import {
  batteryTier,
  CONTACT_MESSAGES,
  contactFormSchema,
  formatFileSize,
  hasControlCharacters,
  LIMITS,
  loginFormSchema,
  MULTILINE_FIELDS,
  NAV_ITEMS,
  newPasswordSchema,
  PASSWORD_MESSAGES,
  PUBLIC_ROUTES,
  retentionYears,
  roleAllows,
  routeAccess,
  STAFF_ROUTES,
  TABLE,
} from './index.js';

const firstMessage = (
  r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } },
  field: string,
) => r.error?.issues.find((i) => i.path[0] === field)?.message;

describe('route table (core §2, admin §2)', () => {
  it('lists every public route of the spec', () => {
    expect([...PUBLIC_ROUTES].sort()).toEqual(
      [
        '/SignupPage',
        '/LoginPage',
        '/ParticipantSignupPage',
        '/ParticipantLoginPage',
        '/fitbit-callback',
        '/omron-callback',
        '/dexcom-callback',
        '/PAFitbitConsentPage',
        '/OmronConsentPage',
        '/ResetPwdReqPage',
        '/ResetPasswordPage',
        '/ContactUsForm/',
        '/SignupValidation',
      ].sort(),
    );
  });

  it.each([
    ['/', ['Sys_Admin', 'Admin', 'User', 'Viewer']],
    ['/ChangePwdReqPage', ['Sys_Admin', 'Admin', 'User', 'Viewer']],
    ['/Participant', ['Sys_Admin', 'Admin', 'User']],
    ['/DataExport', ['Sys_Admin', 'Admin', 'User']],
    ['/TrialUsers', ['Sys_Admin', 'Admin']],
    ['/TeamDataRetention', ['Sys_Admin', 'Admin']],
    ['/FitbitManageParticipantToken', ['Sys_Admin', 'Admin']],
    ['/DbInfoPage', ['Sys_Admin']],
    ['/DeviceMetricsManager', ['Sys_Admin']],
    ['/SignUpApprovalPage', ['Sys_Admin']],
    ['/ParticipantRaw', ['Sys_Admin']],
    ['/LockedAccounts', ['Sys_Admin']],
  ])('%s is open to exactly %j', (path, roles) => {
    expect(routeAccess(path)).toEqual(roles);
  });

  it('Sys_Admin passes every route; no role passes none', () => {
    for (const roles of Object.values(STAFF_ROUTES)) {
      expect(roleAllows('Sys_Admin', roles)).toBe(true);
      expect(roleAllows(null, roles)).toBe(false);
    }
  });

  it('participant pages are their own kind, neither public nor staff', () => {
    expect(routeAccess('/ParticipantHome')).toBe('participant');
    expect(STAFF_ROUTES['/ParticipantHome']).toBeUndefined();
  });

  it('unknown paths have no access entry', () => {
    expect(routeAccess('/nope')).toBeUndefined();
  });

  it('navbar: the study pages for every role, Data Export for writers, Data Management for Sys_Admin only', () => {
    const visible = (role: 'Sys_Admin' | 'Admin' | 'User' | 'Viewer') =>
      NAV_ITEMS.filter((i) => roleAllows(role, i.roles)).map((i) => i.label);
    const study = ['Dashboard', 'Trials', 'Participants', 'Teams'];
    expect(visible('Viewer')).toEqual(study);
    expect(visible('User')).toEqual([...study, 'Data Export']);
    expect(visible('Admin')).toEqual([...study, 'Data Export']);
    expect(visible('Sys_Admin')).toEqual([...study, 'Data Export', 'Data Management']);
  });
});

describe('contact form rules (core §5)', () => {
  const valid = { firstName: 'Al', lastName: 'Bo', email: 'a@b.co', subject: 'abc', message: '0123456789' };
  it('accepts the minimum lengths', () => {
    expect(contactFormSchema.safeParse(valid).success).toBe(true);
  });
  it.each([
    ['firstName', '', CONTACT_MESSAGES.firstNameRequired],
    ['lastName', '', CONTACT_MESSAGES.lastNameRequired],
    ['email', '', CONTACT_MESSAGES.emailRequired],
    ['email', 'not-an-email', CONTACT_MESSAGES.emailInvalid],
    ['subject', '', CONTACT_MESSAGES.subjectRequired],
    ['message', '', CONTACT_MESSAGES.messageRequired],
  ])('%s=%j → %s', (field, value, message) => {
    expect(firstMessage(contactFormSchema.safeParse({ ...valid, [field]: value }), field)).toBe(message);
  });
  it('enforces the ranges 2-50, 3-50, 10-300', () => {
    expect(
      contactFormSchema.safeParse({
        ...valid,
        firstName: 'x'.repeat(50),
        subject: 'x'.repeat(50),
        message: 'x'.repeat(300),
      }).success,
    ).toBe(true);
    for (const [field, value] of [
      ['firstName', 'x'.repeat(51)],
      ['lastName', 'x'],
      ['subject', 'xy'],
      ['message', 'x'.repeat(301)],
    ]) {
      expect(contactFormSchema.safeParse({ ...valid, [field as string]: value }).success).toBe(false);
    }
  });
});

describe('login and password rules', () => {
  it('login messages', () => {
    const r = loginFormSchema.safeParse({ username: ' ', password: '' });
    expect(firstMessage(r, 'username')).toBe('Username is required');
    expect(firstMessage(r, 'password')).toBe('Password is required');
  });
  it.each([
    ['', PASSWORD_MESSAGES.required],
    ['Ab1!', PASSWORD_MESSAGES.tooShort],
    ['Ab1!Ab1!Ab1!Ab1!Ab1!x', PASSWORD_MESSAGES.tooLong],
    ['abcdefg1!', PASSWORD_MESSAGES.rule],
    ['ABCDEFG1!', PASSWORD_MESSAGES.rule],
    ['Abcdefgh!', PASSWORD_MESSAGES.rule],
    ['Abcdefgh1', PASSWORD_MESSAGES.rule],
  ])('%j → %s', (pw, message) => {
    expect(newPasswordSchema.safeParse(pw).error?.issues[0]?.message).toBe(message);
  });
  it('accepts 8 and 20 characters with every class', () => {
    expect(newPasswordSchema.safeParse('Abcdef1!').success).toBe(true);
    expect(newPasswordSchema.safeParse('Abcdefghijklmnop12!_').success).toBe(true);
  });
  it('the special set includes brackets, backslash and dash', () => {
    for (const c of ['[', ']', '\\', '-', '^'])
      expect(newPasswordSchema.safeParse(`Abcdef1${c}`).success, c).toBe(true);
  });
});

describe('section 9 constants', () => {
  it('battery tiers', () => {
    expect([100, 91, 90, 51, 50, 26, 25, 1, 0].map(batteryTier)).toEqual([
      'high',
      'high',
      'medium',
      'medium',
      'low',
      'low',
      'very low',
      'very low',
      'empty',
    ]);
  });
  it('retention years and file sizes', () => {
    expect(retentionYears(365)).toBe(1);
    expect(retentionYears(30)).toBe(0.1);
    expect(retentionYears(2555)).toBe(7);
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(2048)).toBe('2.0 KB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.0 MB');
  });
  it('limits and table settings', () => {
    expect(LIMITS.sessionRefreshMs).toBe(900_000);
    expect(TABLE.pageSizes).toEqual([10, 20, 30, 40, 50]);
    expect(TABLE.sharedSelectionMax).toBe(4);
    expect(TABLE.participantSelectionMax).toBe(10);
  });
});

describe('text without control characters (issue #9)', () => {
  it('refuses NUL, the other C0 characters, DEL and C1; multi-line text may hold tab, LF and CR', () => {
    for (const c of [
      '\u0000',
      '\u0001',
      '\u0008',
      '\u000b',
      '\u001b',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u009f',
    ]) {
      expect(hasControlCharacters(`a${c}b`), JSON.stringify(c)).toBe(true);
      expect(hasControlCharacters(`a${c}b`, true), JSON.stringify(c)).toBe(true);
    }
    for (const c of ['\t', '\n', '\r']) {
      expect(hasControlCharacters(`line${c}line`)).toBe(true);
      expect(hasControlCharacters(`line${c}line`, true)).toBe(false);
    }
    for (const ok of ['', 'plain', 'Zoë Ångström', '日本語', '😀', '\u00a0non-breaking', 'a\u2028b']) {
      expect(hasControlCharacters(ok)).toBe(false);
    }
  });

  it('lists the multi-line fields (notes, the contact message) by route', () => {
    expect(MULTILINE_FIELDS).toEqual({
      'POST /api/userTrials': ['trialNotes'],
      'PUT /api/userTrials': ['trialNotes'],
      'POST /api/trialParticipants': ['notes'],
      'PUT /api/participant': ['notes'],
      'POST /api/contactUs': ['message'],
    });
  });
});
