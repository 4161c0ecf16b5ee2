import {
  actionResultSchema,
  authResponseSchema,
  resetSfaResultSchema,
  resetSfaSchema,
  sfaSetupSchema,
  successResultSchema,
  validateTotpSchema,
  verifyTotpSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { identityOf } from '../../http/session-identity.js';
import { clearSessionCookie, setDeviceCookie } from '../auth/cookies.js';
import {
  isSecondFactorValidated,
  resetSecondFactor,
  sendEmailCode,
  setupAuthenticator,
  validateSecondFactor,
  verifyAuthenticator,
} from './service.js';

const tags = ['second factor'];
// Per-IP limit on top of the per-account lock (5 wrong codes).
const limited = { rateLimit: { max: 20, timeWindow: '1 minute' } };

export function registerSfaRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/auth/secondFactorSetup',
    {
      config: limited,
      schema: {
        tags,
        summary: 'New authenticator secret: QR image (data URL) and base32 key',
        response: { 200: sfaSetupSchema },
      },
    },
    async (request) => setupAuthenticator(ctx, identityOf(request)),
  );
  r.post(
    '/api/auth/verifyTOTP',
    {
      config: limited,
      schema: {
        tags,
        summary: 'First code from the new authenticator; on success the session ends',
        body: verifyTotpSchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request, reply) => {
      const answer = await verifyAuthenticator(ctx, identityOf(request), request.body.sfaToken);
      clearSessionCookie(reply, ctx);
      return answer;
    },
  );
  r.post(
    '/api/auth/validateTOTP',
    {
      config: limited,
      schema: {
        tags,
        summary:
          'Second factor at sign-in (authenticator or emailed code); skipSFA remembers the device 48 h',
        body: validateTotpSchema,
        response: { 200: authResponseSchema },
      },
    },
    async (request, reply) => {
      const { answer, deviceToken } = await validateSecondFactor(
        ctx,
        identityOf(request),
        request.body.sfaToken,
        request.body.skipSFA,
      );
      if (deviceToken) setDeviceCookie(reply, ctx, deviceToken);
      return answer;
    },
  );
  r.post(
    '/api/auth/generateSendEmailTOTP',
    {
      config: { rateLimit: { max: 5, timeWindow: '10 minutes' } },
      schema: {
        tags,
        summary: 'Email a 6-digit sign-in code (10-minute expiry)',
        response: { 200: actionResultSchema },
      },
    },
    async (request) => sendEmailCode(ctx, identityOf(request)),
  );
  r.post(
    '/api/auth/resetSFA',
    {
      config: limited,
      schema: {
        tags,
        summary:
          'Remove the authenticator (back to SFAIsNotSet) with the current password; a wrong one counts toward the lock',
        body: resetSfaSchema,
        response: { 200: resetSfaResultSchema },
      },
    },
    async (request) => resetSecondFactor(ctx, identityOf(request), request.body.currentPassword),
  );
  r.get(
    '/api/auth//isSfaAlreadyValidated',
    {
      schema: {
        tags,
        summary: 'Whether this session has passed the second factor',
        response: { 200: successResultSchema },
      },
    },
    async (request) => isSecondFactorValidated(identityOf(request)),
  );
}
