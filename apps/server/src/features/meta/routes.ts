import { appVersionSchema, publicConfigSchema } from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { APP_VERSION } from '../../version.js';
import { publicConfig } from './service.js';

export function registerMetaRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/appVersion',
    {
      schema: {
        tags: ['meta'],
        summary: 'The portal version (footer)',
        response: { 200: appVersionSchema },
      },
    },
    async () => ({ data: APP_VERSION }),
  );
  // Ours (not in the spec): what the browser needs before it can sign in or send a form.
  r.get(
    '/api/publicConfig',
    {
      schema: {
        tags: ['meta'],
        summary: 'Public client configuration: version and reCAPTCHA site key (null when reCAPTCHA is off)',
        response: { 200: publicConfigSchema },
      },
    },
    async () => publicConfig(ctx),
  );
}
