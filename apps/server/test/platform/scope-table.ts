/*
 * The scope matrix's table (platform/scope-matrix.int.test.ts): for each
 * route of API_ACCESS that names a trial, participant, device link, device,
 * export job, team or user, which parameter or body field carries the id of
 * an object the actor may not reach, which object (support/scope-world.ts),
 * and who acts: (a) another team's object, every role the route's role check
 * lets through; (b) the same team's trial 3 (and its participant, link and
 * jobs), the User and the Viewer, who are trial users of trials 1 and 2 only.
 * The answer must be 404 and no row may change, unless the row names an
 * explicit exception (reachable by design, or another refusal status).
 */
import { API_ACCESS, type ApiRoute, ROLES, type Role, roleAllows } from '@trialwear/contract';
import type { ForeignObject, OwnObjects } from '../support/scope-world.js';

/** A reached object's answer about its own state (the status alone may not tell it from the refusal). */
export interface Reached {
  why: string;
  status: number;
  message: string;
}

export type ScopeActor = Role | 'participant';

export interface BodyIds {
  /** The foreign object's id (the row's object). */
  id: number | string;
  own: OwnObjects;
  /** Another foreign object's id (a pair that belongs together, e.g. the other team's trial and its participant). */
  of: (o: ForeignObject) => number | string;
}

export interface ScopeRow {
  route: ApiRoute;
  /** Where the foreign id goes: a path parameter (':trialId'), a body field ('body.trialId'), or 'list' (must not be in the answer). */
  carrier: `:${string}` | `body.${string}` | 'list';
  object: ForeignObject;
  actors: readonly ScopeActor[];
  /** Other path parameters that carry a foreign object too (default: the home team's own objects). */
  also?: Record<string, ForeignObject>;
  body?: (ids: BodyIds) => Record<string, unknown>;
  /**
   * Actors who reach the object by design, each with the reason: asserted as reached, not skipped — a 2xx,
   * or the given answer about the object's own state (e.g. "not stored for your team", not "Team not found").
   */
  reachableBy?: Partial<Record<Role, string | Reached>>;
  /** Who of the object's own team reaches it in the read rows' control (default: its Admin, or its Sys_Admin). */
  controlRole?: Role;
  /** A 'list' row: the key (at any depth of the answer) whose values must not include the foreign id. */
  listKey?: 'id' | 'trialId' | 'linkId';
  /** A query string for the request ('?resource=…'). */
  query?: string;
  /** A refusal other than 404, with the reason (still: no row changed). */
  refusal?: { status: number; why: string };
}

const SAME_TEAM_TRIAL_SCOPED: readonly Role[] = ['User', 'Viewer'];

/** The actors of a row: the participant for 'participant' routes, else the roles the role check lets through. */
function actorsOf(route: ApiRoute, object: ForeignObject): ScopeActor[] {
  const access = API_ACCESS[route];
  if (access === 'participant') return ['participant'];
  const passing = ROLES.filter(
    (r) => access === 'any' || access === 'session' || (Array.isArray(access) && roleAllows(r, access)),
  );
  return object.startsWith('sameTeam.') ? passing.filter((r) => SAME_TEAM_TRIAL_SCOPED.includes(r)) : passing;
}

const row = (
  route: ApiRoute,
  carrier: ScopeRow['carrier'],
  object: ForeignObject,
  more: Omit<ScopeRow, 'route' | 'carrier' | 'object' | 'actors'> = {},
): ScopeRow => ({ route, carrier, object, actors: actorsOf(route, object), ...more });

/** Both: another team's object and the same team's trial-3 object of one kind. */
const both = (
  route: ApiRoute,
  carrier: ScopeRow['carrier'],
  kind: 'trial' | 'participant' | 'link' | 'job' | 'jobToDelete' | 'pendingJob' | 'alert',
  more: Omit<ScopeRow, 'route' | 'carrier' | 'object' | 'actors'> = {},
): ScopeRow[] => [
  row(route, carrier, `otherTeam.${kind}` as ForeignObject, more),
  row(
    route,
    carrier,
    (kind === 'trial' ? 'sameTeam.trial3' : `sameTeam.trial3.${kind}`) as ForeignObject,
    more,
  ),
];

/** Sys_Admin is platform-wide on the team-id routes (admin §2, §7): team B's :teamId is reachable from team A. */
const SYS_ADMIN_PLATFORM_WIDE = {
  Sys_Admin: 'platform-wide by design on team-id routes (device metrics manager, team storage, team devices)',
};

/** The team storage writes on another team, as its Sys_Admin: answered about that team's metrics. */
const reachedStorage = (status: number, message: string) => ({
  Sys_Admin: { why: SYS_ADMIN_PLATFORM_WIDE.Sys_Admin, status, message },
});

const participantBody = ({ id }: BodyIds) => ({ id });
/** A valid rule set (a refusal must be the scope's, not the body's 400). */
const RULES_BODY = {
  timezone: 'Europe/Berlin',
  lowWear: { enabled: true, minHours: 8, days: 3 },
  noSync: { enabled: true, hours: 24 },
  lowBattery: { enabled: false, percent: 20 },
  lowCgmActive: { enabled: true, percent: 70, days: 2 },
  noBpReading: { enabled: true, days: 3 },
  digest: { enabled: true, localTime: '07:30' },
};
const trialBody = ({ id }: BodyIds) => ({
  trialId: id,
  trialNumber: '9',
  trialName: 'Renamed',
  trialNotes: '',
});

export const SCOPE_ROWS: readonly ScopeRow[] = [
  // participant portal: another participant's link
  row('POST /api/participantAuth/sharing/:linkId/stop', ':linkId', 'otherTeam.link'),
  row('POST /api/participantAuth/sharing/:linkId/stop', ':linkId', 'sameTeam.trial3.link', {
    // The participant account is of neither team: the same team's link is just another participant's.
  }),
  row('GET /api/participantAuth/sharing', 'list', 'otherTeam.link', { listKey: 'linkId' }),
  row('GET /api/participantAuth/sharing', 'list', 'sameTeam.trial3.link', { listKey: 'linkId' }),
  // users and teams
  row('GET /api/users/locked', 'list', 'otherTeam.lockedUser', { listKey: 'id' }),
  row('POST /api/users/:userId/unlock', ':userId', 'otherTeam.lockedUser'),
  row('GET /api/userTeamsData/:userId', ':userId', 'otherTeam.user', {
    reachableBy: { Sys_Admin: "teams/service listUserTeams: a Sys_Admin reads any user's memberships" },
    // Only the user itself and a Sys_Admin read a user's teams.
    controlRole: 'Sys_Admin',
  }),
  row('POST /api/selectTeam', 'body.teamId', 'otherTeam.team', {
    body: ({ id }) => ({ teamId: id, teamName: 'Scope Other', role: 'Admin' }),
    // Not a member (Sys_Admin included): 403, the same answer as for a team that does not exist.
    refusal: {
      status: 403,
      why: 'selectTeam answers 403 for any team without a membership, existing or not',
    },
  }),
  row('POST /api/userSignUpPermission/approveSignUp', 'body.teamId', 'otherTeam.team', {
    body: ({ id }) => ({ email: 'invitee@scope.example', role: 'User', teamId: id, teamName: 'Scope Other' }),
    reachableBy: { Sys_Admin: "approving a sign-up into any team is the Sys_Admin's (platform-wide)" },
  }),
  // trials
  ...both('GET /api/userTrials/', 'list', 'trial', { listKey: 'trialId' }),
  ...both('GET /api/teamParticipants', 'list', 'participant', { listKey: 'id' }),
  ...both('GET /api/trialParticipants/:trialId/trialCode', ':trialId', 'trial'),
  ...both('GET /api/trialParticipants/:trialId', ':trialId', 'trial'),
  // The trial page's window (issue #24): its own query, the same scope.
  ...both('GET /api/trialParticipants/:trialId', ':trialId', 'trial', {
    query: '?page=1&pageSize=10&filter=scope&sort=sync&order=desc',
  }),
  ...both('PUT /api/userTrials', 'body.trialId', 'trial', { body: trialBody }),
  row('DELETE /api/userTrials', 'body.trialId', 'otherTeam.trial', { body: ({ id }) => ({ trialId: id }) }),
  ...both('POST /api/trialParticipants', 'body.trialId', 'trial', {
    body: ({ id }) => ({ trialId: id, email: 'new-scope@x.example' }),
  }),
  row('GET /api/teamUsers/:trialId', ':trialId', 'otherTeam.trial'),
  row('GET /api/trialUsers/:trialId', ':trialId', 'otherTeam.trial'),
  row('POST /api/trialUsers', 'body.trialId', 'otherTeam.trial', {
    body: ({ id }) => ({ trialId: id, userEmail: 'scope-p1@home.example' }),
  }),
  row('DELETE /api/trialUsers', 'body.trialId', 'otherTeam.trial', {
    body: ({ id, of }) => ({ trialId: id, userId: of('otherTeam.user'), userEmail: 'x@x.example' }),
  }),
  row('DELETE /api/trialUsers', 'body.userId', 'otherTeam.user', {
    body: ({ id, own }) => ({ trialId: own.trial1, userId: id, userEmail: 'x@x.example' }),
  }),
  // participants
  ...both('PUT /api/participant', 'body.id', 'participant', { body: ({ id }) => ({ id, notes: 'changed' }) }),
  ...both('DELETE /api/participant', 'body.id', 'participant', { body: participantBody }),
  row('PATCH /api/trialParticipants/:trialId/:participantId/code', ':trialId', 'otherTeam.trial', {
    also: { participantId: 'otherTeam.participant' },
    body: () => ({ suffix: null }),
  }),
  row('PATCH /api/trialParticipants/:trialId/:participantId/code', ':trialId', 'sameTeam.trial3', {
    also: { participantId: 'sameTeam.trial3.participant' },
    body: () => ({ suffix: null }),
  }),
  ...both('PATCH /api/trialParticipants/:trialId/:participantId/code', ':participantId', 'participant', {
    body: () => ({ suffix: null }),
  }),
  // bulk enrolment (issue #25 item 4): the trial is checked before the upload is read
  ...(
    [
      'POST /api/trials/:trialId/participants/import/preview',
      'POST /api/trials/:trialId/participants/import/apply',
      'GET /api/trials/:trialId/participants/import/template',
    ] as const
  ).flatMap((route) => both(route, ':trialId', 'trial')),
  // team devices, device metrics manager, team storage: :teamId
  row('GET /api/teamAllowedDevices/:teamId', ':teamId', 'otherTeam.team', {
    reachableBy: SYS_ADMIN_PLATFORM_WIDE,
  }),
  row('GET /api/teamSupportedDevices/:teamId', ':teamId', 'otherTeam.team', {
    reachableBy: SYS_ADMIN_PLATFORM_WIDE,
  }),
  ...(
    [
      'GET /api/deviceSettings/enhanced/availableMetrics/:teamId/:deviceId/:deviceType',
      'GET /api/deviceSettings/enhanced/deviceSettings/:teamId/:deviceId',
      'PUT /api/deviceSettings/:teamId/:deviceId',
    ] as const
  ).flatMap((route) => [
    row(route, ':teamId', 'otherTeam.team', {
      also: { deviceId: 'otherTeam.device' },
      reachableBy: SYS_ADMIN_PLATFORM_WIDE,
      body: () => ({ settings: [] }),
    }),
    // Another team's device under the session's own team: not that team's device.
    row(route, ':deviceId', 'otherTeam.device', { body: () => ({ settings: [] }) }),
  ]),
  ...(
    [
      'GET /api/dataStorageService/team/:teamId/devices',
      'GET /api/dataStorageService/team/:teamId/retention',
      'GET /api/dataStorageService/team/:teamId/device/:deviceType/selections',
    ] as const
  ).map((route) => row(route, ':teamId', 'otherTeam.team', { reachableBy: SYS_ADMIN_PLATFORM_WIDE })),
  // Writes: the Sys_Admin's answer is about team B's metrics (none enabled, none stored), so nothing changes.
  row('POST /api/dataStorageService/team/:teamId/device/:deviceType/metric', ':teamId', 'otherTeam.team', {
    body: () => ({ metric_key: 'steps', metric_name: 'Steps', units: 'steps' }),
    reachableBy: reachedStorage(
      403,
      'This metric has not been enabled for your team by a system administrator and cannot be stored',
    ),
  }),
  row(
    'DELETE /api/dataStorageService/team/:teamId/device/:deviceType/metric/:metricKey',
    ':teamId',
    'otherTeam.team',
    {
      reachableBy: reachedStorage(404, 'This metric is not stored for your team'),
    },
  ),
  // device links: a participant's id
  ...both('GET /api/fitbitIsParticipantAuth/:id', ':id', 'participant'),
  ...both('GET /api/omronIsParticipantAuth/:id', ':id', 'participant'),
  ...both('GET /api/participantDevices/:participantId/:provider', ':participantId', 'participant'),
  ...both('GET /api/participantDevices/:participantId/:provider/status', ':participantId', 'participant'),
  row(
    'GET /api/participantDevices/:participantId/:provider/token',
    ':participantId',
    'otherTeam.participant',
  ),
  ...both(
    'POST /api/participantDevices/:participantId/:provider/consentRequest',
    ':participantId',
    'participant',
  ),
  ...both('POST /api/fitbitRefreshToken', 'body.id', 'participant', { body: participantBody }),
  ...both('POST /api/omronRefreshToken', 'body.id', 'participant', { body: participantBody }),
  ...both('POST /api/dexcomRefreshToken', 'body.id', 'participant', { body: participantBody }),
  ...both('GET /api/revokeAccessToken/:id', ':id', 'participant'),
  ...both('POST /api/omronRevokeToken', 'body.id', 'participant', { body: participantBody }),
  ...both('POST /api/dexcomRevokeToken', 'body.id', 'participant', { body: participantBody }),
  // device data
  ...both(
    'GET /api/getFitbitServerParticipantData/:participantId/:email/:resourcePath',
    ':participantId',
    'participant',
  ),
  ...both('POST /api/fitbitDataLocalDB/:id', ':id', 'participant', { body: () => ({}) }),
  ...both('GET /api/fitbitDataLocalDB/:id', ':id', 'participant'),
  ...both('POST /api/getOmronParticipantData/:id', ':id', 'participant', {
    body: () => ({ queryStr: { category: 'bloodPressure', since: '2026-01-01' } }),
  }),
  ...both('GET /api/getDexcomParticipantData/:id/:query', ':id', 'participant'),
  row('GET /api/participantRaw/:participantId/:provider', ':participantId', 'otherTeam.participant', {
    query: `?resource=${encodeURIComponent('/activities/steps/date/2026-01-01/2026-01-07.json')}`,
  }),
  // batch data export
  ...both('GET /api/dataExport/trials', 'list', 'trial', { listKey: 'trialId' }),
  ...both('GET /api/dataExport/trials/:trialId/participants/:deviceId', ':trialId', 'trial'),
  row('GET /api/dataExport/trials/:trialId/participants/:deviceId', ':deviceId', 'otherTeam.device'),
  row('GET /api/dataExport/metrics/:deviceId', ':deviceId', 'otherTeam.device'),
  ...(['trialId', 'deviceId', 'participantIds'] as const).flatMap((field) => {
    const objects: ForeignObject[] =
      field === 'trialId'
        ? ['otherTeam.trial', 'sameTeam.trial3']
        : field === 'deviceId'
          ? ['otherTeam.device']
          : ['otherTeam.participant', 'sameTeam.trial3.participant'];
    return objects.map((object) =>
      row('POST /api/dataExport/batchDataExport', `body.${field}`, object, {
        ...(field === 'participantIds' && {
          refusal: {
            status: 400,
            why: 'the list is checked as a whole against the (visible) trial: the same 400 as for ids that do not exist',
          },
        }),
        body: ({ id, own }) => ({
          trialId: own.trial1,
          deviceId: own.device,
          participantIds: [own.participant1],
          startDate: '2026-01-01',
          endDate: '2026-01-07',
          metrics: ['steps'],
          fileName: 'scope',
          exportMode: 'single-tab',
          [field]: field === 'participantIds' ? [id] : id,
        }),
      }),
    );
  }),
  // Admins only (they see every trial of their team): only another team's trial is out of reach.
  row('PUT /api/dataExport/trials/:trialId/policy', ':trialId', 'otherTeam.trial', {
    body: () => ({ allowIdentifiedExports: false }),
  }),
  ...both('GET /api/dataExport/jobs', 'list', 'job', { listKey: 'id' }),
  ...both('GET /api/dataExport/jobs', 'list', 'pendingJob', { listKey: 'id' }),
  ...both('GET /api/dataExport/jobs/:id/download', ':id', 'job'),
  ...both('DELETE /api/dataExport/jobs/:id', ':id', 'jobToDelete'),
  ...both('POST /api/dataExport/jobs/:id/cancel', ':id', 'pendingJob'),
  // study health: the trial's table, rules, alerts and digest opt-in; an alert by id
  ...both('GET /api/studyHealth/trials/:trialId', ':trialId', 'trial'),
  ...both('GET /api/studyHealth/trials/:trialId/rules', ':trialId', 'trial'),
  // Sys_Admin and Admin only: they see every trial of their team, so only another team's is out of reach.
  row('PUT /api/studyHealth/trials/:trialId/rules', ':trialId', 'otherTeam.trial', {
    body: () => RULES_BODY,
  }),
  ...both('GET /api/studyHealth/trials/:trialId/alerts', ':trialId', 'trial'),
  ...both('GET /api/studyHealth/trials/:trialId/alerts', 'list', 'alert', { listKey: 'id' }),
  ...both('POST /api/studyHealth/alerts/:alertId/acknowledge', ':alertId', 'alert', {
    body: () => ({ note: 'Called the participant' }),
  }),
  ...both('PUT /api/studyHealth/trials/:trialId/subscription', ':trialId', 'trial', {
    body: () => ({ digest: true }),
  }),
  // The compliance report: Sys_Admin, Admin, User (a Viewer is refused by role, 403: decision 034).
  ...both('GET /api/studyHealth/trials/:trialId/report', ':trialId', 'trial', { query: '?format=csv' }),
  // REDCap (issue #25 item 3): settings, test, push and log are the Admin's (every trial of their team, so
  // only another team's is out of reach); enrolment is whoever may add participants, on a trial they see.
  // Valid bodies, so that a refusal is the scope's, not the body's 400; REDCap is never called.
  row('GET /api/trials/:trialId/redcap', ':trialId', 'otherTeam.trial'),
  row('PUT /api/trials/:trialId/redcap', ':trialId', 'otherTeam.trial', {
    body: () => ({
      apiUrl: 'http://127.0.0.1:9/api/',
      token: 'ABCDEF0123456789ABCDEF0123456789',
      recordIdField: 'record_id',
      instrument: 'daily',
      dateField: 'day',
      fieldMap: { steps: 'steps' },
      pushEnabled: true,
    }),
  }),
  row('POST /api/trials/:trialId/redcap/test', ':trialId', 'otherTeam.trial', { body: () => ({}) }),
  row('POST /api/trials/:trialId/redcap/push', ':trialId', 'otherTeam.trial', {
    body: () => ({ from: '2027-01-01', to: '2027-01-07' }),
  }),
  row('GET /api/trials/:trialId/redcap/log', ':trialId', 'otherTeam.trial'),
  ...both('POST /api/trials/:trialId/redcap/enrol/preview', ':trialId', 'trial'),
  ...both('POST /api/trials/:trialId/redcap/enrol/apply', ':trialId', 'trial', {
    body: () => ({ previewDigest: 'a'.repeat(64) }),
  }),
];
