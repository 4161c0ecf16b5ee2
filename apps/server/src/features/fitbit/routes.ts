import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { CSRF_COOKIE, CSRF_HEADER } from '../../http/csrf.js';
import { AppError } from '../../http/errors.js';
import { guardFor } from '../auth/session.js';
import { fitbitSettings } from './fitbit-config.js';
import {
  authorizeUrl,
  completeConsent,
  isAuthorized,
  listDevices,
  refreshParticipantToken,
  requestConsent,
  revokeParticipant,
} from './service.js';

const tags = ['fitbit'];
const id = z.coerce.number().int().positive();
const ok = z.object({ success: z.boolean(), message: z.string() });
const deviceEntry = z.object({
  device: z.enum(['fitness tracker', 'scale', 'Error']),
  batteryLevel: z.number().nullable(),
  battery: z.string().nullable(),
  deviceVersion: z.string().nullable(),
  deviceType: z.enum(['TRACKER', 'SCALE']).nullable(),
  lastSyncTime: z.string().nullable(),
  hasError: z.boolean(),
  errorType: z.string().nullable(),
});

export function registerFitbitRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/fitbitClientId',
    {
      onRequest: guardFor('GET /api/fitbitClientId'),
      schema: {
        tags,
        summary: 'The Fitbit client id in use',
        response: { 200: z.object({ clientId: z.string(), simulated: z.boolean() }) },
      },
    },
    async () => {
      const s = fitbitSettings(ctx);
      return { clientId: s.clientId, simulated: s.simulated };
    },
  );

  r.get(
    '/api/fitbitIsParticipantAuth/:id',
    {
      onRequest: guardFor('GET /api/fitbitIsParticipantAuth/:id'),
      schema: {
        tags,
        summary: 'Whether the participant has an authorized Fitbit',
        params: z.object({ id }),
        response: { 200: z.object({ message: z.enum(['found', 'not found']) }) },
      },
    },
    async (request) =>
      isAuthorized(ctx, actorOf(request), request.params.id) as Promise<{ message: 'found' | 'not found' }>,
  );

  r.get(
    '/api/participantDevices/:participantId/fitbit',
    {
      onRequest: guardFor('GET /api/participantDevices/:participantId/fitbit'),
      schema: {
        tags,
        summary: "The participant's Fitbit devices (battery, version, type, last sync) or an error entry",
        params: z.object({ participantId: id }),
        response: { 200: z.array(deviceEntry) },
      },
    },
    async (request) => listDevices(ctx, actorOf(request), request.params.participantId),
  );

  r.post(
    '/api/participantDevices/:participantId/fitbit/consentRequest',
    {
      onRequest: guardFor('POST /api/participantDevices/:participantId/fitbit/consentRequest'),
      schema: {
        tags,
        summary: 'Email the participant a consent link (returned too, for teams that keep no emails)',
        params: z.object({ participantId: id }),
        response: { 200: z.object({ success: z.boolean(), emailed: z.boolean(), link: z.string() }) },
      },
    },
    async (request) => requestConsent(ctx, actorOf(request), request.params.participantId),
  );

  // Public: the participant's browser on the consent page, not a staff session.
  r.get(
    '/api/consent/fitbit/authorizeUrl',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: "The provider's authorize URL for a consent link (signed state, PKCE)",
        querystring: z.object({ id, t: z.string().min(1) }),
        response: { 200: z.object({ url: z.string() }) },
      },
    },
    async (request) => authorizeUrl(ctx, request.query.id, request.query.t),
  );

  r.post(
    '/api/fitbit-callback',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          'Finish a consent: exchange the code, store the tokens (participantId carries the signed state)',
        body: z.object({ authCode: z.string().min(1), participantId: z.string().min(1) }),
        response: { 200: ok },
      },
    },
    async (request) => completeConsent(ctx, request.body.authCode, request.body.participantId, request.ip),
  );

  r.post(
    '/api/fitbitRefreshToken',
    {
      onRequest: guardFor('POST /api/fitbitRefreshToken'),
      schema: {
        tags,
        summary: "Refresh the participant's Fitbit token",
        body: z.object({ id }),
        response: { 200: ok },
      },
    },
    async (request) => refreshParticipantToken(ctx, actorOf(request), request.body.id),
  );

  r.get(
    '/api/revokeAccessToken/:id',
    {
      onRequest: [
        guardFor('GET /api/revokeAccessToken/:id'),
        // The spec makes this a GET; it changes state, so it needs the CSRF header like any write.
        async (request) => {
          const header = request.headers[CSRF_HEADER];
          if (typeof header !== 'string' || header !== request.cookies[CSRF_COOKIE]) {
            throw new AppError(403, 'Invalid or missing CSRF token', 'CsrfError');
          }
        },
      ],
      schema: {
        tags,
        summary: "Revoke the participant's Fitbit access (needs the CSRF header)",
        params: z.object({ id }),
        response: { 200: ok },
      },
    },
    async (request) => revokeParticipant(ctx, actorOf(request), request.params.id),
  );
}
