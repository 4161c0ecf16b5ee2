/*
 * Who may call each API route, as data. The server's route guards read this
 * table and the authorization tests iterate it, so the two cannot drift.
 * 'any' = any fully signed-in staff role. Sys_Admin passes every check.
 */
import type { Role } from './roles.js';

export type ApiAccess = 'public' | 'any' | readonly Role[];

const WRITERS = ['Sys_Admin', 'Admin', 'User'] as const satisfies readonly Role[];
const ADMINS = ['Sys_Admin', 'Admin'] as const satisfies readonly Role[];

export const API_ACCESS = {
  'GET /api/userTrials/': 'any',
  'POST /api/userTrials': ADMINS,
  'PUT /api/userTrials': WRITERS,
  'DELETE /api/userTrials': ADMINS,
  'GET /api/trialParticipants/:trialId/trialCode': 'any',
  'GET /api/trialParticipants/:trialId': 'any',
  'POST /api/trialParticipants': WRITERS,
  'PUT /api/participant': WRITERS,
  'PATCH /api/trialParticipants/:trialId/:participantId/code': WRITERS,
  'DELETE /api/participant': WRITERS,
  'GET /api/teamUsers/:trialId': ADMINS,
  'GET /api/trialUsers/:trialId': ADMINS,
  'POST /api/trialUsers': ADMINS,
  'DELETE /api/trialUsers': ADMINS,
  'GET /api/teamAllowedDevices/:teamId': 'any',
  'GET /api/teamSupportedDevices/:teamId': 'any',
  'GET /api/fitbitClientId': 'any',
  'GET /api/omronClientId': 'any',
  'GET /api/dexcomClientId': 'any',
  'GET /api/fitbitIsParticipantAuth/:id': 'any',
  'GET /api/omronIsParticipantAuth/:id': 'any',
  'GET /api/participantDevices/:participantId/:provider': 'any',
  'GET /api/participantDevices/:participantId/:provider/status': 'any',
  'POST /api/participantDevices/:participantId/:provider/consentRequest': WRITERS,
  'POST /api/fitbitRefreshToken': WRITERS,
  'POST /api/omronRefreshToken': WRITERS,
  'POST /api/dexcomRefreshToken': WRITERS,
  'GET /api/revokeAccessToken/:id': WRITERS,
  'POST /api/omronRevokeToken': WRITERS,
  'POST /api/dexcomRevokeToken': WRITERS,
} as const satisfies Record<string, ApiAccess>;

export type ApiRoute = keyof typeof API_ACCESS;
