/*
 * Outgoing mail. With SMTP_URL: real SMTP through nodemailer. Without it: the
 * full RFC 822 message is written to DATA_DIR/outbox/*.eml and a log line says
 * where, so a local install can read every mail it "sent".
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string; outboxFile?: string }>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: (msg: string) => void;
}

export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: opts.from, ...message });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const file = path.join(
        opts.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
      );
      fs.writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      opts.log(`Mail to ${message.to} ("${message.subject}") written to ${file}`);
      return { messageId: info.messageId, outboxFile: file };
    },
    close: () => {},
  };
}
