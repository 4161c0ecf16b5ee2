/** SQL of the shared request limits (014): one atomic upsert per counted hit. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Counts one hit of `key` in its fixed window of `windowMs` (a new window
 * starts at the first hit after the last one ended). One statement, so
 * concurrent hits on every server count one after another.
 */
export async function countHit(
  db: Db,
  key: string,
  windowMs: number,
  now: Date,
): Promise<{ hits: number; expiresAt: Date }> {
  const end = new Date(now.getTime() + windowMs);
  const { rows } = await sql<{ hits: number; expires_at: Date }>`
    INSERT INTO rate_limit_hits AS r (key, hits, expires_at) VALUES (${key}, 1, ${end})
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.expires_at <= ${now} THEN 1 ELSE r.hits + 1 END,
      expires_at = CASE WHEN r.expires_at <= ${now} THEN excluded.expires_at ELSE r.expires_at END
    RETURNING hits, expires_at`.execute(db);
  const row = rows[0]!;
  return { hits: row.hits, expiresAt: new Date(row.expires_at) };
}

/** Deletes windows that ended before `now` (the hourly cleanup). */
export async function deleteEndedWindows(db: Db, now: Date): Promise<number> {
  const res = await db.deleteFrom('rate_limit_hits').where('expires_at', '<', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}
