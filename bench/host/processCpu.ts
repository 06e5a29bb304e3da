/**
 * CPU time of every process on the machine, grouped by role, from Linux's /proc: what a hooked
 * call costs the whole machine, not only the extension host. On a 2-core machine the browser
 * and the host share the cores with the hooks' shells, so a hook's wall time follows all of it.
 * Elsewhere (no /proc) it reads nothing and the bench says so.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Who spent the CPU time. `helper` is the spawn helper with the shells it reaped. */
export type CpuRole = 'host' | 'helper' | 'browser' | 'other';

const ROLES: readonly CpuRole[] = ['host', 'helper', 'browser', 'other'];

/** CPU ms by role (user + system, with reaped children). */
export type CpuByRole = Record<CpuRole, number>;

/** Clock ticks per second: 100 on every Linux this bench runs on (USER_HZ). */
const TICK_MS = 10;

function roleOf(pid: string, comm: string, cmdline: string): CpuRole {
  if (pid === String(process.pid)) return 'host';
  // The helper's script and its warm shells' $0 both carry this name.
  if (cmdline.includes('hookwise-warm-shell')) return 'helper';
  if (comm.startsWith('chrom')) return 'browser';
  return 'other';
}

/** CPU time spent so far, by role; undefined without /proc. Kernel threads are left out. */
export function cpuByRole(): CpuByRole | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return undefined;
  }
  const out = noCpu();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm.startsWith('kworker')) continue;
      // Fields after the name: state is [0], so utime, stime, cutime, cstime are [11]..[14].
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      out[roleOf(pid, comm, readFileSync(`/proc/${pid}/cmdline`, 'utf8'))] += ticks * TICK_MS;
    } catch {
      // The process ended while we read it.
    }
  }
  return out;
}

/** `after - before`, by role. */
export function cpuSpent(before: CpuByRole, after: CpuByRole): CpuByRole {
  const out = { ...after };
  for (const role of ROLES) out[role] -= before[role];
  return out;
}

/** Adds `more` into `sum`. */
export function addCpu(sum: CpuByRole, more: CpuByRole): void {
  for (const role of ROLES) sum[role] += more[role];
}

/** An empty tally. */
export function noCpu(): CpuByRole {
  return { host: 0, helper: 0, browser: 0, other: 0 };
}

/** "host 26.5, helper 0.0, browser 30.1, other 4.2 ms" per `calls`. */
export function describeCpu(cpu: CpuByRole, calls: number): string {
  return `${ROLES.map((role) => `${role} ${(cpu[role] / calls).toFixed(1)}`).join(', ')} ms`;
}

/** Total CPU ms of a tally. */
export function totalCpu(cpu: CpuByRole): number {
  return ROLES.reduce((sum, role) => sum + cpu[role], 0);
}
