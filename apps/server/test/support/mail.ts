import fs from 'node:fs';
import path from 'node:path';
import { settleAfterResponse } from '../../src/mail/after-response.js';

/** The newest .eml in a test app's outbox that matches. */
export function lastMail(dataDir: string, match: (raw: string) => boolean = () => true): string {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) throw new Error('no mail sent');
  const files = fs.readdirSync(dir).sort().reverse();
  for (const f of files) {
    const raw = fs.readFileSync(path.join(dir, f), 'utf8');
    if (match(raw)) return raw;
  }
  throw new Error('no matching mail');
}

/** Undo quoted-printable soft breaks so links and codes can be read. */
export const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The newest matching mail once the work left after the answers (mail/after-response.ts) is done. */
export async function mailAfterAnswer(dataDir: string, match: (raw: string) => boolean): Promise<string> {
  await settleAfterResponse();
  return lastMail(dataDir, match);
}

/** Every mail in the outbox (after the pending work) that matches. */
export async function allMail(dataDir: string, match: (raw: string) => boolean = () => true) {
  await settleAfterResponse();
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .filter(match);
}
