import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, killAll, pidsIn, spawnCli, survivorsIn, waitFor, waitGone, writePlayground } from '../../adversarial/support/procHarness';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();
let leftovers: number[] = [];
afterEach(() => {
  killAll(leftovers);
  leftovers = [];
});

/**
 * A session with an async PreToolUse hook and a Bash call both running (each with a
 * background child), pids appended to `pids`; `started` appears once all are up.
 */
async function busySession(): Promise<{ args: string[]; pidsFile: string; started: string }> {
  const w = suite.w;
  const hook = 'echo $$ >> pids; sleep 30 & echo $! >> pids; touch hook.started; wait';
  const bash = 'echo $$ >> pids; sleep 31 & echo $! >> pids; while [ ! -f hook.started ]; do sleep 0.05; done; touch started; wait';
  await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', async: true, command: hook }] }] } });
  const model = writePlayground(w, 'busy.json', [{ toolCalls: [{ name: 'Bash', input: { command: bash } }] }, { text: 'never reached' }]);
  return {
    args: ['-p', 'go', '--model', model, '--output-format', 'json', '--permission-mode', 'bypassPermissions'],
    pidsFile: path.join(w.ws, 'pids'),
    started: path.join(w.ws, 'started'),
  };
}

/** The watchdog `/bin/sh` the CLI `cliPid` started, if any. */
function watchdogOf(cliPid: number): number | undefined {
  for (const entry of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      if (ppid === cliPid && args.includes('hookwise-watchdog')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** Expects every recorded pid (hook shell, Bash shell, their background children) to be gone. */
async function expectNoSurvivor(pidsFile: string): Promise<void> {
  const pids = pidsIn(pidsFile);
  leftovers = pids;
  expect(pids).toHaveLength(4);
  expect(await survivorsIn(pids, suite.w.ws)).toEqual([]);
}

describe('hookwise -p stopped by a signal or by losing its parent (docs/security.md)', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s: the run ends as cancelled, the result is printed, exit %i, no hook or Bash process survives', async (signal, code) => {
    const s = await busySession();
    const cli = spawnCli(suite.cli, suite.w, s.args);
    await waitFor(s.started);
    cli.child.kill(signal);

    expect(await cli.exited).toBe(code);
    expect(JSON.parse(cli.stdout())).toMatchObject({ status: 'cancelled', is_error: true });
    expect(cli.stderr()).toContain(`received ${signal}; stopping`);
    await expectNoSurvivor(s.pidsFile);
  });

  it('kill -9 of the CLI itself: its watchdog kills the hook and Bash process groups', async () => {
    const s = await busySession();
    const cli = spawnCli(suite.cli, suite.w, s.args);
    await waitFor(s.started);
    cli.child.kill('SIGKILL');

    expect(await cli.exited).toBe(137);
    await expectNoSurvivor(s.pidsFile);
  });

  it('kill -9 of the CLI itself, with no temp folder to make the group list in: the groups go on the pipe and still die', async () => {
    const s = await busySession();
    const cli = spawnCli(suite.cli, suite.w, s.args, { TMPDIR: path.join(suite.w.base, 'no-such-folder') });
    await waitFor(s.started);
    const watchdog = watchdogOf(cli.child.pid ?? -1);
    expect(readdirSync(`/proc/${watchdog}/fd`)).not.toContain('3');
    cli.child.kill('SIGKILL');

    expect(await cli.exited).toBe(137);
    await expectNoSurvivor(s.pidsFile);
  });

  it('kill -9 of the CLI itself: a hook child that left its group with setsid is found by its marker and killed too', async () => {
    const w = suite.w;
    const hook = "setsid sh -c 'echo $$ >> pids; exec sleep 33' & while [ ! -s pids ]; do sleep 0.02; done; touch started; sleep 30";
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', async: true, command: hook }] }] } });
    const model = writePlayground(w, 'setsid.json', [{ toolCalls: [{ name: 'Bash', input: { command: 'sleep 30' } }] }, { text: 'never reached' }]);
    const cli = spawnCli(suite.cli, w, ['-p', 'go', '--model', model, '--permission-mode', 'bypassPermissions']);
    await waitFor(path.join(w.ws, 'started'));
    const pids = pidsIn(path.join(w.ws, 'pids'));
    leftovers = pids;
    expect(pids).toHaveLength(1);
    cli.child.kill('SIGKILL');

    expect(await cli.exited).toBe(137);
    expect(await survivorsIn(pids, w.ws, 3000)).toEqual([]);
  });

  it('kill -9 of the CLI itself: a hook child that cleared its environment but stayed in its group is killed by the group list', async () => {
    const w = suite.w;
    // env -i drops the watchdog's marker, so only the group the watchdog read from its list finds
    // it. The kill comes as soon as the hook has started: its group must be listed by then (it
    // was not, when the list went to the watchdog's pipe once per turn of the CLI's event loop).
    const hook = 'env -i /bin/sleep 34 & echo $! >> pids; touch started; sleep 30';
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', async: true, command: hook }] }] } });
    const model = writePlayground(w, 'envless.json', [{ toolCalls: [{ name: 'Bash', input: { command: 'sleep 30' } }] }, { text: 'never reached' }]);
    const tmp = path.join(w.base, 'tmp');
    mkdirSync(tmp);
    const cli = spawnCli(suite.cli, w, ['-p', 'go', '--model', model, '--permission-mode', 'bypassPermissions'], { TMPDIR: tmp });
    await waitFor(path.join(w.ws, 'started'));
    const pids = pidsIn(path.join(w.ws, 'pids'));
    leftovers = pids;
    expect(pids).toHaveLength(1);
    // The list is a file only the CLI and its watchdog hold: nothing of it is on disk by name.
    const pgid = readFileSync(`/proc/${pids[0]}/stat`, 'utf8').split(') ')[1]?.split(' ')[2];
    expect(readFileSync(`/proc/${watchdogOf(cli.child.pid ?? -1)}/fd/3`, 'utf8').split('\n')).toContain(`+${pgid}`);
    expect(readdirSync(tmp).filter((name) => name.startsWith('hookwise-watchdog'))).toEqual([]);
    cli.child.kill('SIGKILL');

    expect(await cli.exited).toBe(137);
    expect(await survivorsIn(pids, w.ws, 3000)).toEqual([]);
  });

  it('its parent shell is killed: the re-parented CLI stops by itself and takes its processes with it', async () => {
    const s = await busySession();
    const command = [process.execPath, path.join(suite.cli), ...s.args].map((a) => `'${a}'`).join(' ');
    const parent = spawn('/bin/sh', ['-c', `${command} >cli.out 2>cli.err & echo $! > cli.pid; wait`], {
      cwd: suite.w.ws,
      env: cliEnv(suite.w),
      stdio: 'ignore',
    });
    await waitFor(s.started);
    const cliPid = pidsIn(path.join(suite.w.ws, 'cli.pid'))[0] ?? -1;
    leftovers = [cliPid];
    parent.kill('SIGKILL');

    // Parent polled every 500 ms, async hooks get 2 s after a stop.
    expect(await waitGone(cliPid, 8000)).toBe(true);
    expect(suite.w.read('cli.err')).toContain('the parent process exited; stopping');
    await expectNoSurvivor(s.pidsFile);
  });
});
