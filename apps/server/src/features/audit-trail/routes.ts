import { auditVerificationResultSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { lastVerification } from './service.js';

export function registerAuditTrailRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/audit/verification',
    {
      schema: {
        tags: ['audit'],
        summary: 'The last verification of the audit chain (null before the first)',
        response: { 200: auditVerificationResultSchema },
      },
    },
    async () => ({ verification: await lastVerification(ctx) }),
  );
}
