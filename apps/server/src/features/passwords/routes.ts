import {
  actionResultSchema,
  changePasswordSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  resetPasswordValidationResultSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { createKeyLimiter } from '../../http/key-limiter.js';
import { identityOf, originOf } from '../../http/session-identity.js';
import { clearSessionCookie } from '../auth/cookies.js';
import { changePassword, requestReset, resetPassword, validateResetToken } from './service.js';

const tags = ['passwords'];

export function registerPasswordRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const perAddress = createKeyLimiter(ctx.db, 'forgot-password', 3, 15 * 60_000);
  r.post(
    '/api/auth/forgotPassword',
    {
      config: { rateLimit: { max: 5, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Email a reset link (the same answer for unknown addresses)',
        body: forgotPasswordSchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) => {
      await perAddress(request.body.email.toLowerCase());
      return requestReset(ctx, originOf(request), request.body.email, request.body.recaptchaResponse);
    },
  );
  r.post(
    '/api/auth/resetPasswordValidation',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Check a reset token',
        body: z.object({ token: z.string().min(1) }),
        response: { 200: resetPasswordValidationResultSchema },
      },
    },
    async (request) => validateResetToken(ctx, request.body.token),
  );
  r.post(
    '/api/auth/resetPassword',
    {
      config: { rateLimit: { max: 10, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Set a new password with a reset token (single use); ends every session',
        body: resetPasswordSchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) => resetPassword(ctx, originOf(request), request.body.token, request.body.newPassword),
  );
  r.post(
    '/api/auth/changePwdReq',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } }, // per IP, on top of the lock
      schema: {
        tags,
        summary:
          'Change the password (current one required; a wrong one counts toward the lock); ends every session',
        body: changePasswordSchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request, reply) => {
      const answer = await changePassword(
        ctx,
        identityOf(request),
        request.body.currentPassword,
        request.body.newPassword,
      );
      clearSessionCookie(reply, ctx);
      return answer;
    },
  );
}
