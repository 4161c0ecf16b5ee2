import { CONTACT_MESSAGES, contactRequestSchema, contactResultSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { originOf } from '../../http/session-identity.js';
import { sendContactMessage } from './service.js';

export function registerContactRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/contactUs',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        tags: ['contact'],
        summary: 'Send a Contact Us message to the support address',
        body: contactRequestSchema,
        response: { 200: contactResultSchema },
      },
    },
    async (request) => {
      const id = await sendContactMessage(ctx, originOf(request), request.body, (obj, msg) =>
        request.log.error(obj, msg),
      );
      return { success: true as const, message: CONTACT_MESSAGES.sent, id };
    },
  );
}
