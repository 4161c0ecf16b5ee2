import fs from 'node:fs';
import path from 'node:path';

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
