/*
 * CPU used by a server and its PostgreSQL, from /proc (Linux): the load
 * bench's per-request CPU figures and its wait for a quiet machine.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * CPU time (ms) used so far by a process and, with `children`, by its child
 * processes too (PostgreSQL's backends are children of the postmaster), from
 * /proc (Linux). CPU per request hardly depends on what else the machine runs,
 * unlike requests/s: on a shared machine it is the steadier figure.
 */
export function cpuMs(pid: number, children = false): number {
  const TICK_MS = 10; // USER_HZ is 100 on Linux
  const read = (p: number, withExited = false) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      // After the name: [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime (children that exited).
      const ticks = fields[11]! + fields[12]! + (withExited ? fields[13]! + fields[14]! : 0);
      return { ppid: fields[1]!, ms: ticks * TICK_MS };
    } catch {
      return { ppid: -1, ms: 0 };
    }
  };
  // With children: the backends that ended (the pool closes idle connections) count too.
  let total = read(pid, children).ms;
  if (children)
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const r = read(Number(entry));
      if (r.ppid === pid) total += r.ms;
    }
  return total;
}

/** Waits until the process and PostgreSQL are (nearly) idle: under 10% of a core for 300 ms. */
export async function settle(cpu: { nodePid: number; pgPid: number }) {
  const used = () => cpuMs(cpu.nodePid) + cpuMs(cpu.pgPid, true);
  const deadline = Date.now() + 60_000;
  let before = used();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 300));
    const now = used();
    if (now - before < 30) return;
    before = now;
  }
}

/** The postmaster of the server's embedded cluster (first line of postmaster.pid). */
export function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
}
