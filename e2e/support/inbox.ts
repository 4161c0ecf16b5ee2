import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/** Waits for a message in the test SMTP inbox that matches, and returns its raw text. */
export async function waitForMail(match: (raw: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const dir = inject('inboxDir');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(dir)) {
      for (const f of fs.readdirSync(dir).sort().reverse()) {
        const raw = fs.readFileSync(path.join(dir, f), 'utf8');
        if (match(raw)) return raw;
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no matching mail arrived');
}
