/*
 * Refusals are security events (security-bar: log access-control failures):
 * every 403 (a role refusal, a CSRF refusal, a second factor pending) and
 * every 404 answered to a signed-in caller (another team's record, another
 * participant's link, looks like a missing one) gets an audit entry with who,
 * what route, and why. The caller is a staff user (user and team columns) or
 * a participant account (`after.by: 'participant'` and its account id, as
 * the portal's own audit rows name it); a participant session refused on a
 * staff route (401) is audited the same way.
 *
 * Refusals of callers without any session (401, and 403: a CSRF refusal) are
 * counted, not audited one by one: a scanner would write a row per request,
 * each one queueing on the audit chain's lock. One counter per address and
 * 10-minute window in `rate_limit_hits`, and one `auth.anonymous_refusals`
 * row when the window's count reaches 10, 100, 1000 …
 * (docs/decisions/003-refusal-audit.md).
 *
 * Written after the answer is sent, so a slow insert never delays a refusal;
 * a failed insert is logged, never swallowed silently.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { countHit } from './rate-limit-repo.js';

/** Anonymous refusals: the counting window per address, and the first count that is audited (then ×10 each). */
export const ANONYMOUS_REFUSALS = { windowMs: 10 * 60_000, firstAudited: 10 } as const;

/** 10, 100, 1000 …: at most a handful of rows per address and window, whatever the burst. */
const isAuditedCount = (n: number) => {
  for (let at: number = ANONYMOUS_REFUSALS.firstAudited; at <= n; at *= 10) if (at === n) return true;
  return false;
};

export function registerAccessDenialAudit(app: FastifyInstance, ctx: Pick<AppContext, 'db' | 'now'>) {
  // Callback style: the common case (no refusal) returns at once without a promise (bench/load).
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.url.startsWith('/api/')) return done();
    const status = reply.statusCode;
    if (status !== 401 && status !== 403 && status !== 404) return done();
    const signedIn = request.auth !== null || request.participantAuth !== null;
    if ((status === 401 || status === 403) && !signedIn)
      return countAnonymous(request, status).then(() => done(), done);
    const denied =
      status === 403 ||
      (status === 404 && signedIn && request.routeOptions.url) ||
      // A participant session on a staff route is answered as signed out, yet it is a participant's refusal.
      (status === 401 && request.auth === null && request.participantAuth !== null);
    if (!denied) return done();
    recordDenial(request, status).then(() => done(), done);
  });

  const routeOf = (request: FastifyRequest) =>
    `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;

  async function recordDenial(request: FastifyRequest, status: number) {
    const error = request.answeredWith;
    const participant = request.auth === null ? request.participantAuth : null;
    try {
      await recordAudit(ctx.db, {
        userId: request.auth?.user.id ?? null,
        teamId: request.auth?.teamId ?? null,
        action: error?.reason === 'CsrfError' ? 'csrf.refused' : 'access.denied',
        entityType: 'route',
        entityId: routeOf(request),
        after: {
          status,
          reason: error?.reason ?? null,
          message: error?.message ?? null,
          ...(participant ? { by: 'participant', participantAccountId: participant.accountId } : {}),
        },
        requestId: request.id,
        ip: request.ip,
      });
    } catch (err) {
      request.log.error({ err }, 'could not record the access denial in the audit log');
    }
  }

  async function countAnonymous(request: FastifyRequest, status: number) {
    try {
      // The count and its audit row commit together: a count that reached 10 or 100 is never
      // visible without its row (the next refusal waits on the counter's row lock meanwhile).
      await inTransaction(ctx, ({ db }) => countAndAudit(db, request, status));
    } catch (err) {
      request.log.error({ err }, 'could not count the anonymous refusal');
    }
  }

  async function countAndAudit(db: Db, request: FastifyRequest, status: number) {
    const { hits, expiresAt } = await countHit(
      db,
      `refused:${request.ip}`,
      ANONYMOUS_REFUSALS.windowMs,
      ctx.now(),
    );
    if (!isAuditedCount(hits)) return;
    await recordAudit(db, {
      userId: null,
      teamId: null,
      action: 'auth.anonymous_refusals',
      entityType: 'address',
      entityId: request.ip,
      after: {
        refusals: hits,
        windowEndsAt: expiresAt.toISOString(),
        windowMinutes: ANONYMOUS_REFUSALS.windowMs / 60_000,
        last: { route: routeOf(request), status, reason: request.answeredWith?.reason ?? null },
      },
      requestId: request.id,
      ip: request.ip,
    });
  }
}
