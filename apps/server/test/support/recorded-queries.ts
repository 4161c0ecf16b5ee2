/*
 * The SQL a repository function sends, recorded as it runs, so a test or a
 * bench can EXPLAIN exactly that text with those parameters (the plans of
 * the participant list: participants-sort-index.int.test.ts,
 * bench/participants-list.ts).
 */
import type { CompiledQuery } from 'kysely';
import type { Db } from '../../src/db/database.js';

/** A Db that runs every query as `db` does and records it in `queries`. */
export function recordingDb(db: Db): { db: Db; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = [];
  const recording = new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === 'executeQuery')
        return (q: CompiledQuery) => {
          queries.push(q);
          return target.executeQuery(q);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Db;
  return { db: recording, queries };
}

/** The query explained (`options` e.g. 'ANALYZE, BUFFERS'), without its prepared-statement mark: EXPLAIN is not prepared. */
export function explained(q: CompiledQuery, options?: string): CompiledQuery {
  return { ...q, sql: `EXPLAIN ${options ? `(${options}) ` : ''}${q.sql.replace('/* prepared */', '')}` };
}
