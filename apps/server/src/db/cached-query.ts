/*
 * A hot query built once per shape and kept as SQL text: per call only the
 * values change. Kysely's builder otherwise builds and compiles the same
 * query on every call (a tenth of the server's CPU on the participant-list
 * route, bench/load/); the SQL of a shape never changes within a process, so
 * it is the per-process cache. With PREPARED in the query, PostgreSQL also
 * parses and plans it once per connection.
 *
 * `build` gets the shape (what changes the SQL text: e.g. hidden fields,
 * role, paging) and stand-ins for the parameters; each value of the compiled
 * query that is a stand-in is bound per call, any other value is a constant
 * of the shape.
 */
import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';

type Slot<P> = { param: keyof P } | { constant: unknown };

export function cachedQuery<S, P extends Record<string, unknown>, R>(
  build: (db: Db, shape: S, params: P) => Compilable<R>,
) {
  const cache = new Map<string, { sql: string; slots: Slot<P>[] }>();
  return async (db: Db, shape: S, params: P): Promise<R[]> => {
    const key = JSON.stringify(shape);
    let entry = cache.get(key);
    if (!entry) {
      const names = Object.keys(params) as Array<keyof P>;
      const standIn = (name: keyof P) => `\u0001param:${String(name)}\u0001`;
      const standIns = Object.fromEntries(names.map((n) => [n, standIn(n)])) as unknown as P;
      const compiled = build(db, shape, standIns).compile();
      const slots = compiled.parameters.map((value): Slot<P> => {
        const param = names.find((n) => standIn(n) === value);
        return param === undefined ? { constant: value } : { param };
      });
      entry = { sql: compiled.sql, slots };
      cache.set(key, entry);
    }
    const values = entry.slots.map((s) => ('param' in s ? params[s.param] : s.constant));
    const result = await db.executeQuery<R>(CompiledQuery.raw(entry.sql, values));
    return result.rows;
  };
}
