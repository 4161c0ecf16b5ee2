import {
  actionResultSchema,
  linkIdParamsSchema,
  PARTICIPANT_PORTAL_MESSAGES,
  participantLoginRequestSchema,
  participantSessionSchema,
  sharedDevicesSchema,
} from '@trialwear/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notSignedIn } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { createKeyLimiter } from '../../http/key-limiter.js';
import { originOf } from '../../http/session-identity.js';
import {
  participantLockKey,
  participantLogin,
  participantLogout,
  sharedDevices,
  stopSharing,
} from './service.js';
import { clearParticipantCookie, setParticipantCookie } from './session.js';

/** For 'participant' routes (the guard has checked the session). */
function participantOf(request: FastifyRequest) {
  if (!request.participantAuth) throw notSignedIn();
  return request.participantAuth;
}

export function registerParticipantPortalRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The staff sign-in's throttles: 10 a minute per username (any IP), 30 a minute per IP.
  const perAccount = createKeyLimiter(ctx.db, 'participant-login', 10, 60_000, () => ctx.now().getTime());

  r.post(
    '/api/participantAuth/login',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['participant'],
        summary:
          'Participant sign-in (accounts from /ParticipantSignupPage); confirms the email with its token',
        body: participantLoginRequestSchema,
        response: { 200: participantSessionSchema },
      },
    },
    async (request, reply) => {
      await perAccount(participantLockKey(request.body.username));
      const { sessionToken, answer } = await participantLogin(ctx, originOf(request), request.body);
      setParticipantCookie(reply, ctx, sessionToken);
      return answer;
    },
  );

  r.post(
    '/api/participantAuth/logout',
    {
      schema: {
        tags: ['participant'],
        summary: "End the participant's session",
        response: { 200: actionResultSchema },
      },
    },
    async (request, reply) => {
      await participantLogout(ctx, request.participantAuth, { requestId: request.id, ip: request.ip });
      clearParticipantCookie(reply, ctx);
      return { success: true, message: PARTICIPANT_PORTAL_MESSAGES.signedOut };
    },
  );

  r.get(
    '/api/participantAuth/account',
    {
      schema: {
        tags: ['participant'],
        summary: 'The signed-in participant account',
        response: { 200: participantSessionSchema },
      },
    },
    async (request) => {
      const who = participantOf(request);
      return { account: { username: who.username, email: who.email, emailConfirmed: who.emailConfirmed } };
    },
  );

  r.get(
    '/api/participantAuth/sharing',
    {
      schema: {
        tags: ['participant'],
        summary: 'The devices the participant shares, with which study and since when',
        response: { 200: sharedDevicesSchema },
      },
    },
    async (request) => sharedDevices(ctx, participantOf(request)),
  );

  r.post(
    '/api/participantAuth/sharing/:linkId/stop',
    {
      schema: {
        tags: ['participant'],
        summary: 'Stop sharing one device with one study (the token is revoked at the provider)',
        params: linkIdParamsSchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) =>
      stopSharing(
        ctx,
        participantOf(request),
        { requestId: request.id, ip: request.ip },
        request.params.linkId,
      ),
  );
}
