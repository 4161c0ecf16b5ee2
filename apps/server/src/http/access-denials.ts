/*
 * Refusals are security events (security-bar: log access-control failures):
 * every 403 (a role refusal, a CSRF refusal, a second factor pending) and
 * every 404 answered to a signed-in user (another team's record looks like a
 * missing one) gets an audit entry with who, what route, and why. Written
 * after the answer is sent, so a slow audit insert never delays a refusal;
 * a failed insert is logged, never swallowed silently.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { recordAudit } from '../audit/audit-log.js';

export function registerAccessDenialAudit(app: FastifyInstance, ctx: Pick<AppContext, 'db'>) {
  // Callback style: the common case (no refusal) returns at once without a promise (bench/load).
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.url.startsWith('/api/')) return done();
    const status = reply.statusCode;
    const denied = status === 403 || (status === 404 && request.auth !== null && request.routeOptions.url);
    if (!denied) return done();
    recordDenial(request, status).then(() => done(), done);
  });

  async function recordDenial(request: FastifyRequest, status: number) {
    const error = request.answeredWith;
    try {
      await recordAudit(ctx.db, {
        userId: request.auth?.user.id ?? null,
        teamId: request.auth?.teamId ?? null,
        action: error?.reason === 'CsrfError' ? 'csrf.refused' : 'access.denied',
        entityType: 'route',
        entityId: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
        after: { status, reason: error?.reason ?? null, message: error?.message ?? null },
        requestId: request.id,
        ip: request.ip,
      });
    } catch (err) {
      request.log.error({ err }, 'could not record the access denial in the audit log');
    }
  }
}
