/*
 * Every refusal in Google's error envelope: a body that is not JSON, a
 * GoogleApiError thrown by a handler, an unknown URL, and anything else
 * (500).
 */
import type { FastifyInstance } from 'fastify';
import { GoogleApiError, googleError } from './gh-json.js';

export function useGoogleErrors(app: FastifyInstance) {
  // Google's answer to a body that is not JSON (e.g. a month written 08), in its error envelope.
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, {});
    try {
      done(null, JSON.parse(body as string));
    } catch (e) {
      done(new GoogleApiError(400, `Invalid JSON payload received. ${(e as Error).message}`), undefined);
    }
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof GoogleApiError)
      return reply
        .status(error.code)
        .send(
          googleError(
            error.code,
            error.message,
            error.reason ? { reason: error.reason } : undefined,
            error.status,
          ),
        );
    reply.log.error(error);
    return reply.status(500).send(googleError(500, 'Internal error encountered.'));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(googleError(404, `The requested URL ${request.url.split('?')[0]} was not found on this server.`)),
  );
}
