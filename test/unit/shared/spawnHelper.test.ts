/**
 * The spawn helper's own guarantees, with real processes (runShellCommand's behaviour through
 * it is in processRunner.test.ts): when the helper dies, runs in flight finish and their groups
 * die, and later runs spawn directly; when the host goes away, the helper kills its groups.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
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
});
