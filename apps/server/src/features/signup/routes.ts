import {
  actionResultSchema,
  approveSignupSchema,
  participantSignupResultSchema,
  participantSignupSchema,
  SIGNUP_MESSAGES,
  signupInvitationSchema,
  signupRequestSchema,
  signupResultSchema,
  successResultSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { originOf } from '../../http/session-identity.js';
import { approveSignup, participantSignUp, signUp, validateInvitation, verifyRecaptcha } from './service.js';

const tags = ['sign-up'];

export function registerSignupRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/userSignUpPermission/approveSignUp',
    {
      schema: {
        tags,
        summary: 'Approve a sign-up: email a single-use link granting a role in a team (Sys_Admin)',
        body: approveSignupSchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) => approveSignup(ctx, actorOf(request), request.body),
  );
  r.post(
    '/api/userSignUpPermission/signupRequestValidation',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'What a sign-up link grants',
        body: z.object({ token: z.string().min(1, SIGNUP_MESSAGES.keyMissing) }),
        response: { 200: signupInvitationSchema },
      },
    },
    async (request) => validateInvitation(ctx, request.body.token),
  );
  r.post(
    '/api/users/signup',
    {
      config: { rateLimit: { max: 10, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Create the account of an approved sign-up (email, team and role come from the link)',
        body: signupRequestSchema,
        response: { 200: signupResultSchema },
      },
    },
    async (request) => signUp(ctx, originOf(request), request.body),
  );
  r.post(
    '/api/Participants/signup',
    {
      config: { rateLimit: { max: 10, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary:
          'Participant self sign-up (the same answer for a new or an existing account; the outcome is emailed)',
        body: participantSignupSchema,
        response: { 200: participantSignupResultSchema },
      },
    },
    async (request) => participantSignUp(ctx, originOf(request), request.body),
  );
  r.post(
    '/api/recaptchaVer3Verify',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Verify a reCAPTCHA v3 token',
        body: z.object({ recaptchaResponse: z.string() }),
        response: { 200: successResultSchema },
      },
    },
    async (request) => verifyRecaptcha(ctx, originOf(request), request.body.recaptchaResponse),
  );
}
