/*
 * The server's other entry points as real child processes on a test's
 * database: the admin CLI (one JSON line out) and the job worker.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';
import { builds, isStale } from '../../../../scripts/build-state.mjs';
import { freePort } from '../../../../scripts/free-port.mjs';
import { runCli as runCliLine } from '../../src/cli/run-cli.js';
import type { Database } from '../../src/db/schema/index.js';
import type { TestApp } from './test-app.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/**
 * The node arguments that run one of the server's entry points (`main`,
 * `worker`, `cli/main`): the built `dist/` when it is at least as new as every
 * source it is built from (`npm test` builds it first), else the TypeScript
 * sources through tsx, resolving our packages from source like Vitest does —
 * so a test never runs older code than the checkout. The build costs tsx's
 * transform once instead of ~2 s of CPU in every spawned process (about a
 * hundred in the suite).
 */
export function serverArgv(entry: 'main' | 'worker' | 'cli/main'): string[] {
  const { flags, file } = serverModule(entry);
  return [...flags, file];
}

/** One of the server's modules (e.g. `http/app`) as serverArgv runs it: its file and node's flags for it. */
export function serverModule(module: string): { flags: string[]; file: string } {
  serverBuilt ??= !isStale(builds.server.output, builds.server.sources, repoRoot);
  return serverBuilt
    ? { flags: [], file: `apps/server/dist/${module}.js` }
    : { flags: ['--conditions=source', '--import', 'tsx'], file: `apps/server/src/${module}.ts` };
}
// Decided once per test file: a build or an edit during a run does not switch halfway.
let serverBuilt: boolean | undefined;

const envFor = (t: TestApp, extra: Record<string, string> = {}) => ({
  ...process.env,
  DATABASE_URL: t.ctx.config.DATABASE_URL!,
  DATA_DIR: t.dataDir,
  LOG_LEVEL: 'silent',
  FITBIT_API: t.ctx.config.FITBIT_API,
  ...extra,
});

export function runCli(t: TestApp, ...args: string[]) {
  const res = spawnSync(process.execPath, [...serverArgv('cli/main'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: envFor(t),
  });
  return { code: res.status, stdout: res.stdout.trim(), stderr: res.stderr.trim() };
}

/**
 * The CLI's command line run in this process (run-cli.ts, as main.ts runs it)
 * on the test's database: the same exit code and output as the process, in
 * milliseconds instead of a process start. For the argument checks and each
 * command's answer; keep a real process where the process itself matters
 * (its stdout being one line, its exit status).
 */
export async function cliInProcess(t: TestApp, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCliLine(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, envFor(t));
  return { code, stdout: out.join('\n').trim(), stderr: err.join('\n').trim() };
}

/**
 * The CLI without blocking this process: needed when the CLI calls back into
 * the test app (the simulators are mounted in it), which spawnSync would freeze.
 */
export function runCliAsync(t: TestApp, env: Record<string, string>, ...args: string[]) {
  return runCliWithEnv(envFor(t, env), ...args);
}

/** The CLI as a child process with exactly this environment (e.g. on a database no TestApp made). */
export function runCliWithEnv(env: NodeJS.ProcessEnv, ...args: string[]) {
  return startCliWithEnv(env, ...args).done;
}

/** The CLI as a child process the test may kill (`child`) before it ends (`done`). */
export function startCli(t: TestApp, env: Record<string, string>, ...args: string[]) {
  return startCliWithEnv(envFor(t, env), ...args);
}

function startCliWithEnv(env: NodeJS.ProcessEnv, ...args: string[]) {
  const child = spawn(process.execPath, [...serverArgv('cli/main'), ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
    });
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
  return { child, done };
}

export function startWorker(t: TestApp, env: Record<string, string>) {
  return startWorkerWithEnv(envFor(t, { LOG_LEVEL: 'info', ...env }));
}

/** `npm run worker` as a child process with exactly this environment. */
export function startWorkerWithEnv(env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, serverArgv('worker'), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  return { child, output: () => output };
}

/**
 * SIGKILL a child and wait until its database work is final: the process has
 * exited AND the server backends it had (named by `PGAPPNAME` in its env) are
 * gone. A killed client's backend still finishes a statement it received — a
 * COMMIT already in its socket lands after the kill — so counting rows right
 * after `kill()` races that commit (seen in CI under load: 30 rows late).
 */
export async function killAndSettle(child: ChildProcess, db: Kysely<Database>, appName: string, ms = 30_000) {
  const open = async () =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE application_name = ${appName}`.execute(db)
    ).rows[0]!.n;
  // Else the name never reached the child's connections and the wait below would prove nothing.
  if ((await open()) === 0) throw new Error(`${appName}: no backend of this name before the kill`);
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
  const deadline = Date.now() + ms;
  for (;;) {
    const n = await open();
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${appName}: ${n} backend(s) still open after the kill`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The server (`main.ts`) as a child process on a free port; `env` decides the database (DATABASE_URL or embedded). */
export async function startServer(env: Record<string, string>, opts: { timeoutMs?: number } = {}) {
  // A port chosen beforehand (env.PORT) lets servers started together name each other (PUBLIC_URL).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child: ChildProcess = spawn(process.execPath, serverArgv('main'), {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      WORKERS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, output: () => output };
}

/** A signed-in browser over real HTTP: keeps cookies, sends the CSRF header on writes. */
export class HttpSession {
  private cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  /** The same browser (its cookies) talking to another server, as behind a load balancer. */
  via(base: string): HttpSession {
    const other = new HttpSession(base);
    other.cookies = this.cookies;
    return other;
  }

  private async send(method: string, path: string, body?: unknown) {
    // The CSRF token first: fetching it sets its cookie, which must go out with this request.
    const csrf = method === 'GET' ? undefined : (this.cookies.get('tw_csrf') ?? (await this.csrf()));
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (csrf) {
      headers['content-type'] = 'application/json';
      headers['x-csrf-token'] = csrf;
    }
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }
  private async csrf() {
    return ((await (await this.send('GET', '/api/csrf-token')).json()) as { csrfToken: string }).csrfToken;
  }
  get(path: string) {
    return this.send('GET', path);
  }
  post(path: string, body: unknown) {
    return this.send('POST', path, body);
  }
  async login(username: string, password: string) {
    const res = await this.post('/api/auth/login', { username, password });
    if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  }
}
