/*
 * POST /webhooks/google-health: the Google Health API's subscriber endpoint
 * (service.ts). Outside /api on purpose: Google is no browser session (no
 * cookie, no CSRF token, no role), and the route must read the raw body to
 * check a signature; it authenticates each call itself.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { receiveNotification } from './service.js';

export const GOOGLE_HEALTH_WEBHOOK_PATH = '/webhooks/google-health';

export async function registerGoogleHealthWebhookRoutes(app: FastifyInstance, ctx: AppContext) {
  await app.register(async (scope) => {
    // The raw bytes: a signature is over the body as sent.
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1_048_576 },
      (_r, body, done) => done(null, body),
    );
    scope.post(
      GOOGLE_HEALTH_WEBHOOK_PATH,
      { config: { rateLimit: { max: 600, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await receiveNotification(ctx, request.headers, raw);
        if (outcome.kind === 'notified')
          request.log.info(
            { notifications: outcome.notifications, syncs: outcome.syncs },
            'google health notifications',
          );
        return reply
          .status(outcome.status)
          .send(outcome.status === 200 || outcome.status === 201 ? {} : undefined);
      },
    );
  });
}
