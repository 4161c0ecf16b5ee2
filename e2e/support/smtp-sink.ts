/*
 * A real SMTP server for the journeys (smtp-server package). Accepted mail is
 * written to inboxDir as .eml files; a message containing REJECT-ME is
 * refused with 552, so a journey can watch the portal handle a mail failure.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export async function startSmtpSink(inboxDir: string) {
  fs.mkdirSync(inboxDir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000, // don't wait 30 s for idle client connections at teardown
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (raw.includes('REJECT-ME')) {
          const err = Object.assign(new Error('Mailbox full'), { responseCode: 552 });
          return callback(err);
        }
        n += 1;
        fs.writeFileSync(path.join(inboxDir, `${String(n).padStart(4, '0')}-${Date.now()}.eml`), raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
