/*
 * A real app on a fresh database cloned from the migrated template. No mocks:
 * the same buildApp, repos and SQL as production; mail goes to a temp outbox
 * (or a real SMTP server when the test passes smtpUrl).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import { inject } from 'vitest';
import { freePort } from '../../../../scripts/free-port.mjs';
import type { AppContext } from '../../src/app-context.js';
import { loadConfig } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { APP_ROLE, OWNER_ROLE } from '../../src/db/roles.js';
import { buildApp } from '../../src/http/app.js';
import { createMailer } from '../../src/mail/mailer.js';
import { createProviderRegistry } from '../../src/providers/registry.js';
import { startQueue } from '../../src/queue/boss.js';
import { createRecaptchaVerifier } from '../../src/security/recaptcha.js';
import { asRole, type TestCluster } from './global-setup.js';

/** What GET /api/auth/user answers (200) without a full or pending session. */
export const SIGNED_OUT = { message: 'NotSignedIn', user: null } as const;

export interface TestAppOptions {
  env?: Record<string, string>;
  withQueue?: boolean;
  now?: () => Date;
  /** Listen on a free loopback port, with PUBLIC_URL pointing at it (provider simulators are called over HTTP). */
  listen?: boolean;
  /** Capture the app's log lines (at info level) here. */
  logStream?: NodeJS.WritableStream;
  /** Serve this folder as the built web app (WEB_DIST), as the server does with apps/web/dist. */
  webDist?: string;
  /** The app reaches its database through this port on 127.0.0.1 (a db-proxy.ts in front of the cluster). */
  databasePort?: number;
  /** Clone the database in this cluster instead of the shared one (a test that restarts its database). */
  cluster?: TestCluster;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  database: DatabaseHandle;
  dataDir: string;
  /** A connection to this test's database as the owner role or the superuser; the caller ends it. */
  connectAs: (who: 'owner' | 'superuser') => Promise<pg.Client>;
  /** A client that keeps cookies and sends the CSRF header on writes, like the SPA. */
  client: () => TestClient;
  close: () => Promise<void>;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const adminUrl = opts.cluster?.adminDatabaseUrl ?? inject('adminDatabaseUrl');
  const name = `tw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // PostgreSQL refuses two clones of one template at the same moment: take turns.
    await admin.query('SELECT pg_advisory_lock(734001)');
    await admin.query(
      `CREATE DATABASE ${name} TEMPLATE ${opts.cluster?.templateDatabase ?? inject('templateDatabase')} OWNER ${OWNER_ROLE}`,
    );
  } finally {
    await admin.query('SELECT pg_advisory_unlock(734001)').catch(() => {});
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const passwords = opts.cluster?.rolePasswords ?? inject('rolePasswords');
  /** This test's database as the schema owner, or as the cluster's superuser (for tests that play an attacker). */
  const urlAs = (who: 'owner' | 'superuser') =>
    who === 'owner' ? asRole(url.toString(), OWNER_ROLE, passwords.owner) : url.toString();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-test-'));
  const port = opts.listen ? await freePort() : 0;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    // The application connects as the application role, never as the owner: as in production.
    DATABASE_URL: asRole(viaPort(url, opts.databasePort), APP_ROLE, passwords.app),
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    // The tests written for the legacy Fitbit Web API stay on it; Google Health tests set FITBIT_API.
    FITBIT_API: 'legacy',
    ...(opts.listen ? { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...(opts.webDist ? { WEB_DIST: opts.webDist } : {}),
    ...opts.env,
  });
  const database = openDatabase(config.DATABASE_URL!, 4);
  let boss: PgBoss | null = null;
  if (opts.withQueue) boss = await startQueue(config.DATABASE_URL!, { background: false });
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: path.join(dataDir, 'outbox'),
    log: () => {},
  });
  const secrets = {
    encryptionKey: Buffer.from(config.ENCRYPTION_KEY!, 'base64'),
    previousKeys: [],
    sessionSecret: config.SESSION_SECRET!,
  };
  const ctx: AppContext = {
    config,
    db: database.db,
    boss,
    mailer,
    recaptcha: createRecaptchaVerifier({
      secret: config.RECAPTCHA_SECRET,
      minScore: config.RECAPTCHA_MIN_SCORE,
      verifyUrl: config.RECAPTCHA_VERIFY_URL,
    }),
    secrets,
    providers: createProviderRegistry(config, secrets),
    now: opts.now ?? (() => new Date()),
  };
  const app = await buildApp(opts.logStream ? { ...ctx, config: { ...config, LOG_LEVEL: 'info' } } : ctx, {
    ...(opts.logStream ? { logStream: opts.logStream } : { logger: false }),
    serveWeb: opts.webDist !== undefined,
  });
  await app.ready();
  if (opts.listen) await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    ctx,
    database,
    dataDir,
    client: () => new TestClient(app),
    connectAs: async (who) => {
      const client = new pg.Client({ connectionString: urlAs(who) });
      await client.connect();
      return client;
    },
    close: async () => {
      await app.close();
      await boss?.stop({ graceful: false, wait: true });
      mailer.close();
      await database.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The URL with its host and port replaced by 127.0.0.1:port, if a port is given. */
function viaPort(url: URL, port: number | undefined): string {
  if (port === undefined) return url.toString();
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let clientCount = 0;

export class TestClient {
  private cookies = new Map<string, string>();
  /** Each client comes from its own loopback address, so per-IP rate limits apply per client. */
  readonly ip: string;
  constructor(private readonly app: FastifyInstance) {
    clientCount += 1;
    this.ip = `127.${(clientCount >> 16) & 255}.${(clientCount >> 8) & 255}.${clientCount & 255}`;
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{ name: string; value: string; expires?: Date; maxAge?: number }>) {
      const expired = c.value === '' || (c.expires && c.expires.getTime() < Date.now()) || c.maxAge === 0;
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async csrfToken(): Promise<string> {
    // Plain over http, `__Host-` prefixed when the app is configured with an https PUBLIC_URL.
    const existing = this.cookies.get('tw_csrf') ?? this.cookies.get('__Host-tw_csrf');
    if (existing) return existing;
    const res = await this.request('GET', '/api/csrf-token');
    return res.json().csrfToken as string;
  }

  async request(
    method: Method,
    url: string,
    body?: unknown,
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...opts.headers };
    if (method !== 'GET' && opts.csrf !== false) headers['x-csrf-token'] = await this.csrfToken();
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const res = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    this.remember(res);
    return res;
  }

  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, body?: unknown, opts?: { csrf?: boolean }) {
    return this.request('POST', url, body ?? {}, opts);
  }
  put(url: string, body?: unknown) {
    return this.request('PUT', url, body ?? {});
  }
  delete(url: string, body?: unknown) {
    return this.request('DELETE', url, body ?? {});
  }

  async login(username: string, password: string) {
    const res = await this.post('/api/auth/login', { username, password, recaptchaResponse: '' });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }
}
