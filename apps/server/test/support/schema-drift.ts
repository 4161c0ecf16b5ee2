/*
 * Compares the hand-kept Kysely types (src/db/schema/) with a migrated
 * database. We keep the types by hand rather than generate them because they
 * carry what the database only enforces with CHECK constraints (the literal
 * unions of providers, statuses, roles); this check makes sure they never
 * drift from the migrations: same tables, same columns, same nullability,
 * the same kind of value, and no required column typed as optional.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface DbColumn {
  table: string;
  column: string;
  dataType: string;
  nullable: boolean;
  hasDefault: boolean;
}

interface TsColumn {
  type: string;
  nullable: boolean;
  /** Generated<>: inserts may leave it out, so the database must have a default (TriggerFilled<> is exempt). */
  generated: boolean;
}

/**
 * Table name → column name → its TypeScript type, read from the `Database`
 * interface and the interfaces it names, in the .ts files of the schema
 * directory (one per area, `index.ts` holding `Database`).
 */
export function readSchemaTypes(dir: string): Map<string, Map<string, TsColumn>> {
  const interfaces = new Map<string, { node: ts.InterfaceDeclaration; source: ts.SourceFile }>();
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const file = path.join(dir, name);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    source.forEachChild((node) => {
      if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, { node, source });
    });
  }
  const database = interfaces.get('Database');
  if (!database) throw new Error('db/schema has no Database interface');
  const tables = new Map<string, Map<string, TsColumn>>();
  for (const member of database.node.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const table = member.name.getText(database.source);
    const typeName = member.type.getText(database.source);
    const found = interfaces.get(typeName);
    if (!found) throw new Error(`db/schema: no interface ${typeName} for ${table}`);
    const { node: iface, source } = found;
    const columns = new Map<string, TsColumn>();
    for (const col of iface.members) {
      if (!ts.isPropertySignature(col) || !col.type) continue;
      const text = col.type.getText(source).replace(/\s+/g, ' ');
      const wrapper = /^(Generated|TriggerFilled)</.exec(text)?.[1];
      const inner = wrapper ? text.slice(wrapper.length + 1, -1) : text;
      const parts = inner.split('|').map((p) => p.trim());
      columns.set(col.name.getText(source), {
        type: parts.filter((p) => p !== 'null').join(' | '),
        nullable: parts.includes('null'),
        generated: wrapper === 'Generated',
      });
    }
    tables.set(table, columns);
  }
  return tables;
}

/** Whether a TypeScript type can hold a value of this PostgreSQL type. */
function typeFits(pg: string, tsType: string): boolean {
  const literalStrings = /^'[^']*'( \| '[^']*')*$/.test(tsType);
  switch (pg) {
    case 'integer':
    case 'smallint':
      return tsType === 'number';
    case 'bigint':
    case 'numeric':
      return tsType === 'string' || tsType === 'number';
    case 'double precision':
      return tsType === 'number';
    case 'boolean':
      return tsType === 'boolean';
    case 'text':
    case 'character varying':
    case 'uuid':
    case 'inet':
    case 'time without time zone':
      return tsType === 'string' || literalStrings || /^[A-Z]\w*$/.test(tsType); // e.g. Role
    case 'timestamp with time zone':
      return tsType === 'Timestamp' || tsType === 'Date';
    case 'date':
      return tsType === 'DateOnly' || tsType === 'string';
    case 'jsonb':
    case 'json':
      return true; // any JSON shape the code chooses to type
    case 'ARRAY':
      return tsType.endsWith('[]');
    default:
      return false;
  }
}

export function schemaDrift(types: Map<string, Map<string, TsColumn>>, db: DbColumn[]): string[] {
  const problems: string[] = [];
  const dbTables = new Map<string, DbColumn[]>();
  for (const c of db) dbTables.set(c.table, [...(dbTables.get(c.table) ?? []), c]);
  for (const table of dbTables.keys())
    if (!types.has(table)) problems.push(`table ${table} is in the database but not in db/schema`);
  for (const table of types.keys())
    if (!dbTables.has(table)) problems.push(`table ${table} is in db/schema but not in the database`);
  for (const [table, columns] of dbTables) {
    const typed = types.get(table);
    if (!typed) continue;
    for (const c of columns) {
      const t = typed.get(c.column);
      const where = `${table}.${c.column}`;
      if (!t) {
        problems.push(`${where} (${c.dataType}) is missing from db/schema`);
        continue;
      }
      if (t.nullable !== c.nullable)
        problems.push(`${where}: nullable in the database is ${c.nullable}, in db/schema ${t.nullable}`);
      if (!typeFits(c.dataType, t.type)) problems.push(`${where}: ${c.dataType} typed as ${t.type}`);
      if (t.generated && !c.hasDefault)
        problems.push(`${where}: typed Generated<> but the database has no default for it`);
    }
    for (const column of typed.keys())
      if (!columns.some((c) => c.column === column))
        problems.push(`${table}.${column} is in db/schema but not in the database`);
  }
  return problems;
}
