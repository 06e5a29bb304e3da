/**
 * The spawn helper's own guarantees, with real processes (runShellCommand's behaviour through
 * it is in processRunner.test.ts): when the helper dies, runs in flight finish and their groups
 * die, and later runs spawn directly; when the host goes away, the helper kills its groups.
 */
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLeanLauncher } from '../../../src/shared/leanLauncher';
import type { ProcessLauncher, ProcessRunOptions, ProcessRunResult } from '../../../src/shared/processLauncher';
import { runShellCommand as runShell } from '../../../src/shared/processRunner';
import { startSpawnHelper, type SpawnHelper } from '../../../src/shared/spawnHelper';
import { isAlive, PidFile, survivors } from '../../support/processProbe';

const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-helper-')));

let helper: SpawnHelper | undefined;
let launcher: ProcessLauncher | undefined;
let pidFile: PidFile | undefined;
afterEach(() => {
  launcher = undefined;
  helper?.close();
  helper = undefined;
  pidFile?.dispose();
  pidFile = undefined;
});

function started(): SpawnHelper {
  const h = startSpawnHelper();
  if (!h) throw new Error('the spawn helper did not start');
  launcher = createLeanLauncher({ spawner: h.spawner });
  return (helper = h);
}

/** Runs on the lean launcher given the helper's spawner (the extension host's hook path). */
function runShellCommand(command: string, options: ProcessRunOptions): Promise<ProcessRunResult> {
  return runShell(command, options, launcher);
}

/** Pids of the idle shells the helper `helperPid` forked in advance (Linux /proc). */
function warmShells(helperPid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === helperPid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('hookwise-warm-shell')) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** The helper's children with their command lines: what a failed wait prints. */
function helperChildren(helperPid: number): string {
  const kids: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== helperPid) continue;
      kids.push(`${entry}: ${readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 80)}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return `helper ${helperPid} alive: ${isAlive(helperPid)}; children: [${kids.join('; ')}]`;
}

/**
 * Runs `true` (after which the helper forks a shell for the next run like it) until a warm
 * shell is up, at most 3 times. Once, in a full CI run on a loaded 2-core machine, none was seen
 * within 5 s of one run (cause not found: the product then spawns fresh, which is correct); a
 * failure here prints what the helper had.
 */
async function warmUpShell(h: SpawnHelper, env: NodeJS.ProcessEnv): Promise<number[]> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await runShellCommand('true', { cwd, env });
    const ready = await waitForWarmShell(h.pid);
    if (ready.length > 0) return ready;
  }
  throw new Error(`no warm shell after 3 runs: ${helperChildren(h.pid)}`);
}

async function waitForWarmShell(helperPid: number): Promise<number[]> {
  for (let i = 0; i < 500 && warmShells(helperPid).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  return warmShells(helperPid);
}

async function waitForPids(file: PidFile, count: number): Promise<number[]> {
  for (let i = 0; i < 200 && file.pids().length < count; i++) await new Promise((r) => setTimeout(r, 10));
  return file.pids();
}

describe('spawn helper', () => {
  it('a helper killed mid-run: the run finishes, its group dies, and the next run spawns directly', async () => {
    const h = started();
    pidFile = new PidFile();
    const pending = runShellCommand(`sleep 100 & echo $! >> '${pidFile.file}'; wait`, { cwd });
    const [sleeper] = await waitForPids(pidFile, 1);
    expect(sleeper).toBeDefined();
    // The host must have heard of the shell (its group) before the helper dies; on a busy
    // machine the shell can write its pid before the helper's report arrives.
    for (let i = 0; i < 200 && h.runningPids.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    process.kill(h.pid, 'SIGKILL');
    const r = await pending;
    expect(r.exitCode).toBeNull();
    expect(await survivors([sleeper as number])).toEqual([]);
    expect(h.alive).toBe(false);
    const next = await runShellCommand('echo $PPID', { cwd });
    expect(Number(next.stdout)).toBe(process.pid);
  });

  it('when the host closes its pipe, the helper kills the groups it still runs and exits', async () => {
    const h = started();
    pidFile = new PidFile();
    void runShellCommand(`sleep 100 & echo $! >> '${pidFile.file}'; wait`, { cwd });
    const [sleeper] = await waitForPids(pidFile, 1);
    expect(sleeper).toBeDefined();
    h.close();
    expect(await survivors([sleeper as number, h.pid], 2000)).toEqual([]);
    expect(isAlive(h.pid)).toBe(false);
  });

  it('a shell that cannot start (missing cwd) is reported the same way as a direct spawn', async () => {
    started();
    const r = await runShellCommand('true', { cwd: path.join(cwd, 'missing') });
    expect(r).toMatchObject({ exitCode: null, spawnError: `working directory does not exist: ${path.join(cwd, 'missing')}` });
  });

  it('each run gets its own environment, also one sent before many others (the helper keeps environments by id)', async () => {
    started();
    const mark = (n: number): NodeJS.ProcessEnv => ({ ...process.env, HOOKWISE_TEST_MARK: `env-${n}` });
    const seen: string[] = [];
    // Twelve environments (more than are kept), then the oldest one still kept, the newest, and
    // the first two again (sent anew), at once.
    for (const n of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) seen.push((await runShellCommand('echo "$HOOKWISE_TEST_MARK"', { cwd, env: mark(n) })).stdout);
    const again = await Promise.all([4, 11, 0, 1, 4].map((n) => runShellCommand('echo "$HOOKWISE_TEST_MARK"', { cwd, env: mark(n) })));
    expect([...seen, ...again.map((r) => r.stdout)]).toEqual([...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 4, 11, 0, 1, 4].map((n) => `env-${n}\n`)]);
  });

  describe.skipIf(process.platform !== 'linux')('shells forked in advance', { timeout: 60_000 }, () => {
    const env = { ...process.env, HOOKWISE_TEST_MARK: 'warm' };

    it('a repeated `/bin/sh -c` run is served by a shell forked after the previous one, and sees what a fresh shell sees', async () => {
      const h = started();
      const [ready] = await warmUpShell(h, env);
      const served = await runShellCommand('echo $$', { cwd, env });
      expect(Number(served.stdout)).toBe(ready);
      // Program and arguments, a multi-line command, stdin, cwd, env and the exit code, against a direct spawn.
      await waitForWarmShell(h.pid);
      const command = `printf '%s|%s|' "$0" "$#"; pwd; echo "$HOOKWISE_TEST_MARK"\ncat; exit 3`;
      const options = { cwd, env, stdin: '{"tool_name":"Bash"}\nsecond line' };
      const warm = await runShellCommand(command, options);
      const cold = await runShell(command, options);
      expect(warm).toMatchObject({ stdout: cold.stdout, stderr: cold.stderr, exitCode: 3 });
      expect(cold.stdout).toBe(`/bin/sh|0|${cwd}\nwarm\n{"tool_name":"Bash"}\nsecond line`);
    });

    it('a run with another environment or cwd is spawned fresh', async () => {
      const h = started();
      const ready = await warmUpShell(h, env);
      const other = await runShellCommand('echo $$', { cwd, env: { ...env, HOOKWISE_TEST_MARK: 'other' } });
      expect(ready).not.toContain(Number(other.stdout));
    });

    it('idle shells die with the helper', async () => {
      const h = started();
      const ready = await warmUpShell(h, env);
      h.close();
      expect(await survivors([...ready, h.pid], 2000)).toEqual([]);
    });
  });
});
