import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from '../../support/processProbe';
import type { CliWorkspace } from '../../support/cliHarness';

/**
 * Real-process helpers for the process-lifetime tests (docs/security.md): start the
 * built CLI with a playground script (no model server), stop it every way a process can be
 * stopped, and read pids and peak memory from /proc.
 */

/** A CLI process whose stdout/stderr go to files in the workspace base (not pipes: the tests kill it). */
export interface CliProc {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Exit code, or 128+signo when a signal ended it. */
  readonly exited: Promise<number>;
  stdout(): string;
  stderr(): string;
}

/** The environment a test CLI runs with: temp HOME and HOOKWISE_HOME, nothing of the user's. */
export function cliEnv(w: CliWorkspace): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: w.home, HOOKWISE_HOME: w.hookwiseHome };
}

/** Writes a playground script (`turns`) into the workspace; returns the `--model` value for it. */
export function writePlayground(w: CliWorkspace, name: string, turns: readonly unknown[]): string {
  writeFileSync(path.join(w.ws, name), JSON.stringify({ turns }));
  return `playground:${name}`;
}

let serial = 0;

/** Starts `node <cli> ...args` in the workspace (`env`: variables added to {@link cliEnv}'s). */
export function spawnCli(cli: string, w: CliWorkspace, args: readonly string[], env: NodeJS.ProcessEnv = {}): CliProc {
  const n = ++serial;
  const outFile = path.join(w.base, `cli-${n}.out`);
  const errFile = path.join(w.base, `cli-${n}.err`);
  const out = openSync(outFile, 'w');
  const err = openSync(errFile, 'w');
  const child = spawn(process.execPath, [cli, ...args], { cwd: w.ws, env: { ...cliEnv(w), ...env }, stdio: ['ignore', out, err] });
  closeSync(out);
  closeSync(err);
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? signalNumber(signal) : 0)));
  });
  return { child, pid: child.pid ?? -1, exited, stdout: () => readFileSync(outFile, 'utf8'), stderr: () => readFileSync(errFile, 'utf8') };
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 0;
}

/** Pids appended one per line to `file` by hooks and commands (`echo $$ >> pids`). */
export function pidsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
}

/** Polls until `file` exists. */
export async function waitFor(file: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} did not appear within ${ms} ms`);
    await sleep(20);
  }
}

/** Polls until `pid` is gone (zombies count as gone); false if it is still alive after `ms`. */
export async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > until) return false;
    await sleep(20);
  }
  return true;
}

/**
 * The pids of `pids` still alive whose working directory is inside `dir`. pid_max is often
 * 32768 and other test processes churn through pids, so a recorded pid can be reused by an
 * unrelated process within seconds: hooks and commands run in the test's own temp directory,
 * which tells ours apart.
 */
export function aliveIn(pids: readonly number[], dir: string): number[] {
  return pids.filter((pid) => {
    if (!isAlive(pid)) return false;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      return cwd === dir || cwd.startsWith(`${dir}${path.sep}`);
    } catch {
      return false;
    }
  });
}

/** Polls until none of `pids` is alive in `dir` (see {@link aliveIn}) or `ms` passes; returns the survivors. */
export async function survivorsIn(pids: readonly number[], dir: string, ms = 1000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const alive = aliveIn(pids, dir);
    if (alive.length === 0 || Date.now() > until) return alive;
    await sleep(20);
  }
}

/** `pid (cmdline) pgid N ppid N` for a failure message, so a survivor says what it is. */
export function describePid(pid: number): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return `${pid} (${cmd.slice(0, 120)}) ppid ${fields[1]} pgid ${fields[2]}`;
  } catch {
    return `${pid} (gone)`;
  }
}

/** SIGKILLs whatever is left (test cleanup; a pid that is gone is fine). */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already: the expected case
    }
  }
}

/** Peak resident set of `pid` in KiB (VmHWM), or undefined once the process is gone. */
export function peakRssKib(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
