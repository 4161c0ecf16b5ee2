/*
 * The route table of both specs (core §2, admin §2) as data. The web router
 * registers exactly these paths and guards them with these roles; the server
 * uses the same role lists for the API calls behind each screen.
 */
import { ROLE_GROUPS, type Role } from './roles.js';

export type RouteAccess = 'public' | 'participant' | readonly Role[];

const { staff: ALL_STAFF, writers: STAFF_WRITERS, admins: ADMINS, sysAdmin: SYS_ADMIN } = ROLE_GROUPS;

export const PUBLIC_ROUTES = [
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
] as const;

/** Pages anyone may open, signed in or not (not in the spec's lists, but linked from the footer). */
export const OPEN_ROUTES = ['/not-authorized', '/privacy-policy', '/terms'] as const;

/** Public pages a signed-in user is sent home from (core §4: "visiting login or sign-up goes home"). */
export const SIGNED_OUT_ONLY_ROUTES = [
  '/LoginPage',
  '/SignupPage',
  '/SignupValidation',
  '/ParticipantSignupPage',
  '/ParticipantLoginPage',
] as const;

export const STAFF_ROUTES: Record<string, readonly Role[]> = {
  // Broad list: every staff role (core §2).
  '/SFASetupPage': ALL_STAFF,
  '/SFAVerifyPage': ALL_STAFF,
  '/SFAValidatePage': ALL_STAFF,
  '/SFASendCodeViaMsgPage': ALL_STAFF,
  '/': ALL_STAFF,
  '/UserTeams': ALL_STAFF,
  '/Trials': ALL_STAFF,
  '/TrialPage': ALL_STAFF,
  '/FitbitParticipantDataPage': ALL_STAFF,
  '/ParticipantsDataPage': ALL_STAFF,
  '/FitbitParticipantOverview': ALL_STAFF,
  '/ParticipantsPage': ALL_STAFF,
  '/AddParticipantPage': ALL_STAFF,
  '/FitbitParticipantDataForm': ALL_STAFF,
  '/FitbitParticipant1DayData': ALL_STAFF,
  '/FitbitParticipantsDataPage': ALL_STAFF,
  '/OmronParticipantDataPage': ALL_STAFF,
  '/ParticipantDataPage': ALL_STAFF,
  '/ParticipantOverview': ALL_STAFF,
  '/OmronParticipantOverview': ALL_STAFF,
  '/ChangePwdReqPage': ALL_STAFF,
  // Not named in the spec's lists but reached from /ParticipantsDataPage (core §2): same audience.
  '/OmronParticipantsDataPage': ALL_STAFF,
  // The glucose page the spec leaves open (issue #10): same audience as the other data pages.
  '/DexcomParticipantDataPage': ALL_STAFF,
  // Study health (issue #23 §6): every role that sees the trial.
  '/StudyHealth': ALL_STAFF,
  // Sys_Admin, Admin, User (core §2; admin §2 for /DataExport).
  '/Participant': STAFF_WRITERS,
  '/FitbitParticipantConsent': STAFF_WRITERS,
  '/DexcomParticipantConsent': STAFF_WRITERS,
  '/DataExport': STAFF_WRITERS,
  // Sys_Admin and Admin.
  '/FitbitManageParticipantToken': ADMINS,
  '/OmronManageParticipantToken': ADMINS,
  '/TrialUsers': ADMINS,
  '/TeamDataRetention': ADMINS,
  // Sys_Admin only.
  '/SignUpApprovalPage': SYS_ADMIN,
  '/ParticipantRaw': SYS_ADMIN,
  '/FitbitParticipantDataRaw': SYS_ADMIN,
  '/OmronParticipantDataRaw': SYS_ADMIN,
  '/DexcomParticipantDataRaw': SYS_ADMIN,
  '/DbInfoPage': SYS_ADMIN,
  '/DeviceMetricsManager': SYS_ADMIN,
  // Not in the spec: unlocking accounts beside the CLI (issue #9).
  '/LockedAccounts': SYS_ADMIN,
  '/AuditTrail': SYS_ADMIN,
};

/**
 * Pages of a signed-in participant (issue #14; not staff pages): the page
 * asks the server, whose 'participant' access refuses staff sessions, and
 * sends a signed-out visitor to /ParticipantLoginPage.
 */
export const PARTICIPANT_ROUTES = ['/ParticipantHome'] as const;

/** Second-factor pages: reachable by a partially signed-in user (second factor pending). */
export const SFA_ROUTES = [
  '/SFASetupPage',
  '/SFAVerifyPage',
  '/SFAValidatePage',
  '/SFASendCodeViaMsgPage',
] as const;

export function routeAccess(path: string): RouteAccess | undefined {
  if ((PUBLIC_ROUTES as readonly string[]).includes(path)) return 'public';
  if ((PARTICIPANT_ROUTES as readonly string[]).includes(path)) return 'participant';
  return STAFF_ROUTES[path];
}

/**
 * Navbar entries per role (core §2 Navbar). Data Management is Sys_Admin only in the navigation.
 * Trials, Participants and Teams (routes of the spec's broad list whose content it leaves open,
 * issue #14) sit beside Dashboard: the places a coordinator goes between trials.
 */
export const NAV_ITEMS = [
  { label: 'Dashboard', path: '/', roles: ALL_STAFF },
  { label: 'Trials', path: '/Trials', roles: ALL_STAFF },
  { label: 'Participants', path: '/ParticipantsPage', roles: ALL_STAFF },
  { label: 'Teams', path: '/UserTeams', roles: ALL_STAFF },
  { label: 'Data Export', path: '/DataExport', roles: STAFF_WRITERS },
  { label: 'Data Management', path: '/TeamDataRetention', roles: SYS_ADMIN },
] as const;

export const SYS_ADMIN_MENU = [
  { label: 'Device Metrics', path: '/DeviceMetricsManager' },
  { label: 'Database Info', path: '/DbInfoPage' },
  { label: 'Sign-up Approval', path: '/SignUpApprovalPage' },
  { label: 'Locked Accounts', path: '/LockedAccounts' },
  { label: 'Audit Trail', path: '/AuditTrail' },
] as const;
