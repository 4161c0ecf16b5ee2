/*
 * Two database roles, so that the application cannot rewrite its own audit
 * trail (security-bar: "audit records protected from modification"):
 *
 * - the OWNER owns the schema and every table, and runs the migrations;
 * - the APPLICATION role (what the server, workers and CLI connect as) may
 *   read and write the data tables, but only INSERT and SELECT the audit log,
 *   owns no table (so it cannot ALTER TABLE … DISABLE TRIGGER), and is no
 *   superuser (so it cannot SET session_replication_role = replica).
 *
 * The embedded cluster creates both (its bootstrap superuser only sets them
 * up); with DATABASE_URL the operator creates them (see SECURITY.md) and
 * gives the owner as DATABASE_OWNER_URL. Grants are re-applied at every
 * start, so tables added by later migrations are covered.
 */
import pg from 'pg';

export const OWNER_ROLE = 'trialwear_owner';
export const APP_ROLE = 'trialwear_app';

/** Tables the application may read but never change. */
const READ_ONLY_TABLES = ['audit_chain_head', 'schema_migrations'];
/** Tables the application may only append to and read. */
const APPEND_ONLY_TABLES = ['audit_log'];

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // A lost connection fails the query in flight; without a listener it would also end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * As a superuser (the embedded cluster's bootstrap user): create or update
 * the two login roles, make the owner own the database, its public schema
 * and every object in it (earlier versions created them as the superuser),
 * and give the application role a schema of its own for the job queue.
 */
export async function ensureRoles(
  superUrl: (database: string) => string,
  database: string,
  passwords: { owner: string; app: string },
) {
  await withClient(superUrl('postgres'), async (c) => {
    for (const [role, password] of [
      [OWNER_ROLE, passwords.owner],
      [APP_ROLE, passwords.app],
    ] as const) {
      const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      const verb = exists.rowCount ? 'ALTER' : 'CREATE';
      await c.query(
        `${verb} ROLE ${ident(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD ${c.escapeLiteral(password)}`,
      );
    }
    const db = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!db.rowCount) await c.query(`CREATE DATABASE ${ident(database)} OWNER ${ident(OWNER_ROLE)}`);
    else await c.query(`ALTER DATABASE ${ident(database)} OWNER TO ${ident(OWNER_ROLE)}`);
    // pg-boss checks its schema with CREATE SCHEMA IF NOT EXISTS, which needs CREATE on the database.
    await c.query(`GRANT CONNECT, CREATE ON DATABASE ${ident(database)} TO ${ident(APP_ROLE)}`);
  });
  await withClient(superUrl(database), async (c) => {
    await c.query(`ALTER SCHEMA public OWNER TO ${ident(OWNER_ROLE)}`);
    await reassignSchemaObjects(c, 'public', OWNER_ROLE);
    await c.query(`CREATE SCHEMA IF NOT EXISTS pgboss AUTHORIZATION ${ident(APP_ROLE)}`);
    await c.query(`ALTER SCHEMA pgboss OWNER TO ${ident(APP_ROLE)}`);
    await reassignSchemaObjects(c, 'pgboss', APP_ROLE);
  });
}

/** Every table, view, sequence, function and type of a schema not yet owned by `role` becomes its. */
async function reassignSchemaObjects(c: pg.Client, schema: string, role: string) {
  const objects = await c.query<{ kind: string; name: string }>(
    `SELECT CASE WHEN cl.relkind IN ('r', 'p') THEN 'TABLE' WHEN cl.relkind = 'v' THEN 'VIEW'
                 WHEN cl.relkind = 'S' THEN 'SEQUENCE' END AS kind,
            format('%I.%I', n.nspname, cl.relname) AS name
       FROM pg_class cl JOIN pg_namespace n ON n.oid = cl.relnamespace
      WHERE n.nspname = $1 AND cl.relkind IN ('r', 'p', 'v', 'S')
        AND pg_get_userbyid(cl.relowner) <> $2
        -- identity sequences follow their table
        AND NOT (cl.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = cl.oid AND d.deptype = 'i'))
     UNION ALL
     SELECT 'FUNCTION', p.oid::regprocedure::text
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND pg_get_userbyid(p.proowner) <> $2
     UNION ALL
     SELECT 'TYPE', format('%I.%I', n.nspname, t.typname)
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typtype IN ('e', 'd') AND pg_get_userbyid(t.typowner) <> $2`,
    [schema, role],
  );
  for (const o of objects.rows) await c.query(`ALTER ${o.kind} ${o.name} OWNER TO ${ident(role)}`);
}

/** As the owner, after migrating: what the application role may do (idempotent). */
export async function applyAppGrants(ownerPool: Pick<pg.Pool, 'query'>, appRole: string) {
  const app = ident(appRole);
  await ownerPool.query(`
    GRANT USAGE ON SCHEMA public TO ${app};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${app};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${app};
    REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public FROM ${app};
    REVOKE INSERT, UPDATE, DELETE ON ${READ_ONLY_TABLES.map(ident).join(', ')} FROM ${app};
    REVOKE UPDATE, DELETE ON ${APPEND_ONLY_TABLES.map(ident).join(', ')} FROM ${app};
  `);
}

export interface RoleFacts {
  role: string;
  superuser: boolean;
  ownsAuditLog: boolean;
}

/** What the application's connection can do to the audit log (for the start-up warning with DATABASE_URL). */
export async function describeRole(pool: pg.Pool): Promise<RoleFacts> {
  const r = await pool.query<RoleFacts>(
    `SELECT current_user AS role,
            (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
            coalesce((SELECT pg_get_userbyid(relowner) = current_user FROM pg_class
                       WHERE oid = to_regclass('public.audit_log')), false) AS "ownsAuditLog"`,
  );
  return r.rows[0]!;
}
