/*
 * Who may call each API route, as data: the one authorization path. The
 * server attaches a guard to every /api route from this table when the route
 * is registered (a route missing here stops the server from starting), and
 * the authorization-matrix test iterates it, so the three cannot drift.
 *
 * 'public'  no session needed (sign-in, sign-up, consent callbacks, health …)
 * 'session' any session, also one whose second factor is still pending
 * 'any'     any fully signed-in staff role
 * 'participant' a participant's session (its own cookie); a staff session never passes it,
 *           and a participant session passes nothing else but 'public'
 * roles     fully signed in with one of these roles in the session's team
 * Sys_Admin passes every role check. Scope (another team's ids, or for a User
 * or Viewer another trial's → 404) is the server's access module
 * (apps/server/src/access/), on top of this.
 */
import { ROLE_GROUPS, type Role } from './roles.js';

export type ApiAccess = 'public' | 'session' | 'any' | 'participant' | readonly Role[];

const { writers: WRITERS, admins: ADMINS, sysAdmin: SYS_ADMIN } = ROLE_GROUPS;

export const API_ACCESS = {
  // platform
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'GET /api/appVersion': 'public',
  'GET /api/publicConfig': 'public',
  'GET /api/csrf-token': 'public',
  'POST /api/contactUs': 'public',
  'GET /api/audit/verification': SYS_ADMIN,
  // sign-in and sessions (core §4)
  'POST /api/auth/login': 'public',
  // Public so that a signed-out caller is answered 200 'NotSignedIn'; the route itself
  // answers a pending second factor 403 with its status, like 'any' would.
  'GET /api/auth/user': 'public',
  'GET /api/auth/login/': 'any',
  'POST /api/auth/logout': 'public',
  'POST /api/auth/logoutEverywhere': 'any',
  'POST /api/auth/refreshToken': 'any',
  // second factor: reachable while the second factor is pending
  'GET /api/auth/secondFactorSetup': 'session',
  'POST /api/auth/verifyTOTP': 'session',
  'POST /api/auth/validateTOTP': 'session',
  'POST /api/auth/generateSendEmailTOTP': 'session',
  'POST /api/auth/resetSFA': 'session',
  'GET /api/auth//isSfaAlreadyValidated': 'session',
  // passwords
  'POST /api/auth/forgotPassword': 'public',
  'POST /api/auth/resetPasswordValidation': 'public',
  'POST /api/auth/resetPassword': 'public',
  'POST /api/auth/changePwdReq': 'any',
  // sign-up
  'POST /api/userSignUpPermission/approveSignUp': SYS_ADMIN,
  'POST /api/userSignUpPermission/signupRequestValidation': 'public',
  'POST /api/users/signup': 'public',
  'POST /api/Participants/signup': 'public',
  'POST /api/recaptchaVer3Verify': 'public',
  // participant accounts (issue #14): sign-in, their shared devices, stop sharing
  'POST /api/participantAuth/login': 'public',
  'POST /api/participantAuth/logout': 'public',
  'GET /api/participantAuth/account': 'participant',
  'GET /api/participantAuth/sharing': 'participant',
  'POST /api/participantAuth/sharing/:linkId/stop': 'participant',
  // locked accounts (issue #9): the Sys_Admin's teams only
  'GET /api/users/locked': SYS_ADMIN,
  'POST /api/users/:userId/unlock': SYS_ADMIN,
  // teams
  'GET /api/team': 'any',
  'GET /api/sysAdminTeamsData': SYS_ADMIN,
  'GET /api/userTeamsData/:userId': 'any',
  'POST /api/selectTeam': 'any',
  // trials and participants
  'GET /api/userTrials/': 'any',
  'POST /api/userTrials': ADMINS,
  'PUT /api/userTrials': WRITERS,
  'DELETE /api/userTrials': ADMINS,
  'GET /api/trialParticipants/:trialId/trialCode': 'any',
  'GET /api/trialParticipants/:trialId': 'any',
  // every participant of the trials the caller sees (/ParticipantsPage; not in the spec's calls)
  'GET /api/teamParticipants': 'any',
  'POST /api/trialParticipants': WRITERS,
  'PUT /api/participant': WRITERS,
  'PATCH /api/trialParticipants/:trialId/:participantId/code': WRITERS,
  'DELETE /api/participant': WRITERS,
  // bulk enrolment (issue #25 item 4): whoever may add a participant (core §6), on a trial they see
  'POST /api/trials/:trialId/participants/import/preview': WRITERS,
  'POST /api/trials/:trialId/participants/import/apply': WRITERS,
  'GET /api/trials/:trialId/participants/import/template': WRITERS,
  // REDCap (issue #25 item 3, decision 048): the connection and pushes are the Admin's; enrolling
  // from it is adding participants (whoever may add them, on a trial they see)
  'GET /api/trials/:trialId/redcap': ADMINS,
  'PUT /api/trials/:trialId/redcap': ADMINS,
  'POST /api/trials/:trialId/redcap/test': ADMINS,
  'POST /api/trials/:trialId/redcap/push': ADMINS,
  'GET /api/trials/:trialId/redcap/log': ADMINS,
  'POST /api/trials/:trialId/redcap/enrol/preview': WRITERS,
  'POST /api/trials/:trialId/redcap/enrol/apply': WRITERS,
  'GET /api/teamUsers/:trialId': ADMINS,
  'GET /api/trialUsers/:trialId': ADMINS,
  'POST /api/trialUsers': ADMINS,
  'DELETE /api/trialUsers': ADMINS,
  // team devices
  'GET /api/teamAllowedDevices/:teamId': 'any',
  'GET /api/teamSupportedDevices/:teamId': 'any',
  // device metrics manager (admin §2, §7): Sys_Admin only
  'GET /api/deviceSettings/enhanced/availableMetrics/:teamId/:deviceId/:deviceType': SYS_ADMIN,
  'GET /api/deviceSettings/enhanced/deviceSettings/:teamId/:deviceId': SYS_ADMIN,
  // the whole catalog, for mode B's grouped metric dropdown (not in the spec's calls)
  'GET /api/deviceSettings/enhanced/metricCatalog': SYS_ADMIN,
  'PUT /api/deviceSettings/:teamId/:deviceId': SYS_ADMIN,
  // team data storage and retention (admin §2, §7): the session's team unless Sys_Admin
  'GET /api/dataStorageService/team/:teamId/devices': ADMINS,
  'GET /api/dataStorageService/team/:teamId/retention': ADMINS,
  'GET /api/dataStorageService/metrics/:deviceType': ADMINS,
  'GET /api/dataStorageService/team/:teamId/device/:deviceType/selections': ADMINS,
  'POST /api/dataStorageService/team/:teamId/device/:deviceType/metric': ADMINS,
  'DELETE /api/dataStorageService/team/:teamId/device/:deviceType/metric/:metricKey': ADMINS,
  // database info (admin §2: paths not shown): Sys_Admin only
  'GET /api/dbInfo/teams': SYS_ADMIN,
  'GET /api/dbInfo/teamAllowedBrands': SYS_ADMIN,
  'GET /api/dbInfo/teamSupportedDevices': SYS_ADMIN,
  'GET /api/dbInfo/teamUserMappings': SYS_ADMIN,
  'GET /api/dbInfo/teamStorageSettings': SYS_ADMIN,
  'GET /api/dbInfo/users': SYS_ADMIN,
  'GET /api/dbInfo/trials': SYS_ADMIN,
  'GET /api/dbInfo/participants': SYS_ADMIN,
  'GET /api/dbInfo/participantDevices': SYS_ADMIN,
  'GET /api/dbInfo/globalDeviceCatalog': SYS_ADMIN,
  // device links
  'GET /api/fitbitClientId': 'any',
  'GET /api/omronClientId': 'any',
  'GET /api/dexcomClientId': 'any',
  'GET /api/fitbitIsParticipantAuth/:id': 'any',
  'GET /api/omronIsParticipantAuth/:id': 'any',
  'GET /api/participantDevices/:participantId/:provider': 'any',
  'GET /api/participantDevices/:participantId/:provider/status': 'any',
  // token state for the token management pages (core §2: Sys_Admin and Admin)
  'GET /api/participantDevices/:participantId/:provider/token': ADMINS,
  'POST /api/participantDevices/:participantId/:provider/consentRequest': WRITERS,
  'GET /api/consent/:provider/authorizeUrl': 'public',
  'POST /api/fitbit-callback': 'public',
  'POST /api/omron-callback': 'public',
  'POST /api/dexcom-callback': 'public',
  'POST /api/fitbitRefreshToken': WRITERS,
  'POST /api/omronRefreshToken': WRITERS,
  'POST /api/dexcomRefreshToken': WRITERS,
  'GET /api/revokeAccessToken/:id': WRITERS,
  'POST /api/omronRevokeToken': WRITERS,
  'POST /api/dexcomRevokeToken': WRITERS,
  // device data (issue #10): every staff role reads data pages; raw answers are Sys_Admin only
  'GET /api/getFitbitServerParticipantData/:participantId/:email/:resourcePath': 'any',
  // The spec lists it for the data pages every staff role opens; the server computes what it stores.
  'POST /api/fitbitDataLocalDB/:id': 'any',
  'GET /api/fitbitDataLocalDB/:id': 'any',
  'POST /api/getOmronParticipantData/:id': 'any',
  'GET /api/getDexcomParticipantData/:id/:query': 'any',
  'GET /api/participantRaw/:participantId/:provider': SYS_ADMIN,
  // batch data export (admin §2, §6, §7: Sys_Admin, Admin, User); cancel is ours (§7: call not shown)
  'GET /api/dataExport/trials': WRITERS,
  'GET /api/dataExport/devices': WRITERS,
  'GET /api/dataExport/trials/:trialId/participants/:deviceId': WRITERS,
  'GET /api/dataExport/metrics/:deviceId': WRITERS,
  'GET /api/dataExport/jobs': WRITERS,
  'POST /api/dataExport/batchDataExport': WRITERS,
  // de-identified exports (issue #25 item 5): an Admin decides per trial whether real dates may leave
  'PUT /api/dataExport/trials/:trialId/policy': ADMINS,
  'GET /api/dataExport/jobs/:id/download': WRITERS,
  'DELETE /api/dataExport/jobs/:id': WRITERS,
  'POST /api/dataExport/jobs/:id/cancel': WRITERS,
  // study health (issue #23 §8): every role that sees the trial reads; Admins edit the rules;
  // Admin and User acknowledge alerts and choose their own digest
  'GET /api/studyHealth/trials/:trialId': 'any',
  'GET /api/studyHealth/trials/:trialId/rules': 'any',
  'PUT /api/studyHealth/trials/:trialId/rules': ADMINS,
  'GET /api/studyHealth/trials/:trialId/alerts': 'any',
  'POST /api/studyHealth/alerts/:alertId/acknowledge': WRITERS,
  'GET /api/studyHealth/alertCount': 'any',
  'PUT /api/studyHealth/trials/:trialId/subscription': WRITERS,
  // the compliance report is a data export of the trial (core §6: no export for Viewers; decision 034)
  'GET /api/studyHealth/trials/:trialId/report': WRITERS,
} as const satisfies Record<string, ApiAccess>;

export type ApiRoute = keyof typeof API_ACCESS;

/**
 * The spec's state-changing GETs (revokeAccessToken): they need the CSRF
 * header like every POST/PUT/PATCH/DELETE.
 */
export const STATE_CHANGING_GETS: readonly ApiRoute[] = ['GET /api/revokeAccessToken/:id'];
