/*
 * Contact Us: the message is stored first, then mailed to the support
 * address. If the mail cannot be sent, the row stays with mail_status
 * 'failed' and the error (nothing is lost) and the sender is told
 * 'Message could not be sent!'.
 */
import { CONTACT_MESSAGES, type ContactRequest } from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import type { RequestOrigin } from '../../http/session-identity.js';
import { requireRecaptcha } from '../../security/recaptcha.js';
import * as repo from './repo.js';

export async function sendContactMessage(
  ctx: AppContext,
  origin: RequestOrigin,
  input: ContactRequest,
  log: (obj: object, msg: string) => void,
) {
  await requireRecaptcha(ctx.recaptcha, input.recaptchaResponse, origin.ip);
  // Stored with its audit row, not in a transaction with the mail status: the message must survive a failed mail.
  const id = await inTransaction(ctx, async (tx) => {
    const id = await repo.insertContactMessage(tx.db, { ...input, userId: origin.userId, ip: origin.ip });
    // Who sent what is in the message row; the audit row says that one arrived, from where.
    await recordAudit(tx.db, {
      userId: origin.userId,
      teamId: null,
      action: 'contact.message.received',
      entityType: 'contact_message',
      entityId: id,
      requestId: origin.requestId,
      ip: origin.ip,
    });
    return id;
  });
  try {
    await ctx.mailer.send({
      to: ctx.config.SUPPORT_EMAIL,
      replyTo: input.email,
      subject: `[TrialWear contact #${id}] ${input.subject}`,
      text: [
        `From: ${input.firstName} ${input.lastName} <${input.email}>`,
        `Subject: ${input.subject}`,
        '',
        input.message,
        '',
        `-- Sent with the TrialWear contact form (${ctx.config.publicUrl}/ContactUsForm/), message #${id}`,
      ].join('\n'),
    });
  } catch (err) {
    await repo.setMailStatus(ctx.db, id, 'failed', (err as Error).message);
    log({ err, contactMessageId: id }, 'contact message stored but mail failed');
    throw new AppError(502, CONTACT_MESSAGES.failed, 'MailError', { displayToUser: true });
  }
  await repo.setMailStatus(ctx.db, id, 'sent', null);
  return id;
}
