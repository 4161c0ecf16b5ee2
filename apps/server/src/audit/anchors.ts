/*
 * Chain anchors: the audit chain's head (position and hash) written, once a
 * day, outside the database — to the log and appended to a file
 * (AUDIT_ANCHOR_FILE; keep it on other storage than the database, or ship
 * the log lines elsewhere). Someone with full database rights could delete an
 * entry and recompute every later hash; the chain would verify again, but
 * the anchors written before would no longer match. One JSON object a line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const anchorSchema = z.object({
  seq: z.number().int().nonnegative(),
  hash: z.string(),
  at: z.string(),
});
export type Anchor = z.infer<typeof anchorSchema>;

export function readAnchors(file: string): Anchor[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, i) => {
      const parsed = anchorSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${i + 1}: not an audit anchor`);
      return parsed.data;
    });
}

export function appendAnchor(file: string, anchor: Anchor) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${JSON.stringify(anchor)}\n`, { mode: 0o600 });
}
