/*
 * A password-reset link: a random token, stored hashed, valid one hour and
 * usable once, recorded with its audit row. Issued on request (forgot
 * password) and with the mail telling an owner that their account locked.
 */
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { newLinkToken } from '../../security/tokens.js';
import * as repo from './repo.js';

export const RESET_TTL_MS = 60 * 60 * 1000;

export async function issueResetLink(
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  userId: number,
  why: 'requested' | 'locked',
  origin: { requestId: string | null; ip: string | null },
): Promise<string> {
  const { token, hash } = newLinkToken();
  await inTransaction(ctx, async (tx) => {
    const now = tx.now();
    await repo.insertResetToken(tx.db, {
      tokenHash: hash,
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
    });
    await recordAudit(tx.db, {
      userId,
      teamId: null,
      action: 'password.reset.requested',
      entityType: 'user',
      entityId: userId,
      after: { why },
      requestId: origin.requestId,
      ip: origin.ip,
    });
  });
  return `${ctx.config.publicUrl}/ResetPasswordPage?token=${token}`;
}
