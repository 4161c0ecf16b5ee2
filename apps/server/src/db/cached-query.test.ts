import { Kysely, PostgresDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cachedQuery } from './cached-query.js';
import type { Database } from './schema/index.js';

describe('cachedQuery', () => {
  it('builds each shape once and binds the values of each call in the order of the SQL', async () => {
    const executed: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: {} as never }) });
    // No database: record what would run.
    (db as unknown as { executeQuery: unknown }).executeQuery = async (q: {
      sql: string;
      parameters: unknown[];
    }) => {
      executed.push({ sql: q.sql, parameters: q.parameters });
      return { rows: [] };
    };
    let builds = 0;
    const find = cachedQuery((d, shape: { active: boolean }, p: { team: number; user: number }) => {
      builds += 1;
      let q = d
        .selectFrom('trials')
        .select('id')
        .where('team_id', '=', p.team)
        .where('owner_user_id', '=', p.user);
      if (shape.active) q = q.where('trial_code', '=', 'CONST').where('id', '>', p.team);
      return q;
    });
    await find(db, { active: true }, { team: 1, user: 2 });
    await find(db, { active: true }, { team: 7, user: 8 });
    await find(db, { active: false }, { team: 3, user: 4 });
    expect(builds).toBe(2);
    expect(executed.map((e) => e.parameters)).toEqual([
      [1, 2, 'CONST', 1],
      [7, 8, 'CONST', 7],
      [3, 4],
    ]);
    expect(executed[0]!.sql).toBe(executed[1]!.sql);
    expect(executed[0]!.sql).toContain('"team_id" = $1');
  });
});
