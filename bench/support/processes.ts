/*
 * The benches' child processes: the portal (or another server) started with
 * its output kept for error messages, waited for over HTTP, and stopped with
 * SIGTERM (SIGKILL after 30 s, which is an error), and a check that no
 * PostgreSQL was left behind.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Spawned = ReturnType<typeof spawnLogged>;

export function spawnLogged(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (c: Buffer) => {
    tail = (tail + c.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, name, log: () => tail };
}

export async function waitFor(url: string, proc: { child: ChildProcess; log: () => string; name: string }) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited early:\n${proc.log()}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${proc.name} did not come up:\n${proc.log()}`);
}

export async function stopProcess(proc: { child: ChildProcess; name: string; log: () => string }) {
  if (proc.child.exitCode !== null) return;
  proc.child.kill('SIGTERM');
  const exited = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 30_000);
    proc.child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!exited) {
    proc.child.kill('SIGKILL');
    throw new Error(`${proc.name} did not stop on SIGTERM:\n${proc.log().slice(-3000)}`);
  }
}

export function postgresRunningOn(port: number) {
  const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return ps.stdout.split('\n').some((l) => l.includes('postgres') && l.includes(`-p ${port}`));
}
