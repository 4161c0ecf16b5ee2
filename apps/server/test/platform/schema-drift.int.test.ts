/*
 * src/db/schema/ (the Kysely types every repo compiles against) must match
 * the database the migrations build.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbColumn, readSchemaTypes, schemaDrift } from '../support/schema-drift.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SCHEMA_DIR = fileURLToPath(new URL('../../src/db/schema/', import.meta.url));

describe('db/schema against the migrated database', () => {
  let t: TestApp;
  let columns: DbColumn[];
  beforeAll(async () => {
    t = await createTestApp();
    columns = (
      await sql<DbColumn>`
        SELECT c.table_name AS "table", c.column_name AS "column", c.data_type AS "dataType",
               c.is_nullable = 'YES' AS nullable,
               (c.column_default IS NOT NULL OR c.is_identity = 'YES') AS "hasDefault"
        FROM information_schema.columns c
        JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
          -- A partition (intraday_days' months) has its parent's columns: the parent is checked.
          AND NOT EXISTS (SELECT 1 FROM pg_inherits i
                          WHERE i.inhrelid = format('public.%I', c.table_name)::regclass)
        ORDER BY c.table_name, c.ordinal_position`.execute(t.ctx.db)
    ).rows;
  });
  afterAll(() => t.close());

  it('has every table and column with the same nullability and kind of value', () => {
    expect(schemaDrift(readSchemaTypes(SCHEMA_DIR), columns)).toEqual([]);
  });

  it('notices a column the types lack, a nullability change and a missing table', () => {
    const drifted: DbColumn[] = [
      ...columns.map((c) =>
        c.table === 'trials' && c.column === 'trial_name' ? { ...c, nullable: !c.nullable } : c,
      ),
      { table: 'participants', column: 'shoe_size', dataType: 'integer', nullable: true, hasDefault: false },
      { table: 'new_table', column: 'id', dataType: 'integer', nullable: false, hasDefault: true },
    ];
    expect(schemaDrift(readSchemaTypes(SCHEMA_DIR), drifted)).toEqual([
      'table new_table is in the database but not in db/schema',
      'participants.shoe_size (integer) is missing from db/schema',
      'trials.trial_name: nullable in the database is true, in db/schema false',
    ]);
  });
});
