/** The export bench's small tools: a child process timed to its exit, and how figures print. */
import { spawn } from 'node:child_process';
import { root } from '../support/processes.js';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const fmt = (n: number) => Math.round(n).toLocaleString('en');

export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ stdout: string; ms: number }>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-5000);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve({ stdout, ms });
      else reject(new Error(`${cmd} exited with ${code}:\n${stderr}`));
    });
  });
}
