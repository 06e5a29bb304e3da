import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execaLauncher } from '../../../src/shared/execaLauncher';
import { createLeanLauncher, leanLauncher } from '../../../src/shared/leanLauncher';
import type { ProcessLauncher, ProcessRunOptions } from '../../../src/shared/processLauncher';
import { runShellCommand } from '../../../src/shared/processRunner';
import { resolveShell, withShellPrefix } from '../../../src/shared/shellInvocation';
import { startSpawnHelper, type SpawnHelper } from '../../../src/shared/spawnHelper';
import { PidFile, survivors } from '../../support/processProbe';

const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-runner-')));

let pidFile: PidFile | undefined;

async function waitForPids(file: PidFile): Promise<number[]> {
  for (let i = 0; i < 500 && file.pids().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  return file.pids();
}
afterEach(() => {
  pidFile?.dispose();
  pidFile = undefined;
});

describe('resolveShell', () => {
  it('POSIX: /bin/sh -c <command>', () => {
    expect(resolveShell('echo hi', 'linux')).toEqual({ file: '/bin/sh', args: ['-c', 'echo hi'] });
    expect(resolveShell('echo hi', 'darwin')).toEqual({ file: '/bin/sh', args: ['-c', 'echo hi'] });
  });
  it('Windows without Git Bash: cmd /d /s /c "<command>" verbatim (code path only here)', () => {
    const shell = resolveShell('echo hi', 'win32', { ComSpec: 'C:\\Windows\\system32\\cmd.exe' });
    expect(shell).toEqual({ file: 'C:\\Windows\\system32\\cmd.exe', args: ['/d', '/s', '/c', '"echo hi"'], windowsVerbatimArguments: true });
  });
});

describe('withShellPrefix (CLAUDE_CODE_SHELL_PREFIX)', () => {
  it('unset or blank: the command as it is', () => {
    expect(withShellPrefix('echo hi', {}, 'linux')).toBe('echo hi');
    expect(withShellPrefix('echo hi', { CLAUDE_CODE_SHELL_PREFIX: '  ' }, 'linux')).toBe('echo hi');
  });
  it('POSIX: the prefix gets the command as one single-quoted word, quotes inside survive', () => {
    expect(withShellPrefix(`echo "it's"`, { CLAUDE_CODE_SHELL_PREFIX: '/opt/audit.sh --log' }, 'linux')).toBe(`/opt/audit.sh --log 'echo "it'\\''s"'`);
  });
  it.each([leanLauncher, execaLauncher])('the wrapped command really runs with the prefix in front ($name launcher)', async (launcher) => {
    const r = await runShellCommand(`echo "it's"`, { cwd, env: { ...process.env, CLAUDE_CODE_SHELL_PREFIX: `printf '[%s]'` } }, launcher);
    expect(r.stdout).toBe(`[echo "it's"]`);
  });
});

// The same behaviour on both launchers (the lean one for hooks, execa for the Bash tool and
// !commands), and on the lean one whether the shell is spawned here or by the spawn helper
// (the extension host's path for hooks).
describe.each(['lean, direct spawn', 'lean, spawn helper', 'execa'] as const)('runShellCommand (%s)', (mode) => {
  let helper: SpawnHelper | undefined;
  let launcher: ProcessLauncher = mode === 'execa' ? execaLauncher : leanLauncher;
  const run = (command: string, options: ProcessRunOptions) => runShellCommand(command, options, launcher);
  beforeAll(() => {
    if (mode !== 'lean, spawn helper') return;
    const started = startSpawnHelper();
    if (!started) throw new Error('the spawn helper did not start');
    helper = started;
    launcher = createLeanLauncher({ spawner: started.spawner });
  });
  afterAll(() => {
    helper?.close();
  });

  it('the shell is started by the expected parent', async () => {
    const r = await run('echo $PPID', { cwd });
    expect(Number(r.stdout)).toBe(mode === 'lean, spawn helper' ? helper?.pid : process.pid);
  });
  it('an exit by a signal is recorded as such', async () => {
    expect(await run('echo x; kill -TERM $$', { cwd })).toMatchObject({ stdout: 'x\n', exitCode: null, signal: 'SIGTERM', aborted: false });
  });
  it('output past the cap is dropped, however much there is', async () => {
    const r = await run('head -c 5000000 /dev/zero | tr "\\0" a; echo done >&2', { cwd, maxOutputBytes: 1024 });
    expect(r).toMatchObject({ stdout: 'a'.repeat(1024), stdoutTruncated: true, stderr: 'done\n', exitCode: 0 });
  });
  it('an abort right after the start still kills the shell', async () => {
    const controller = new AbortController();
    const pending = run('sleep 100', { cwd, signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ aborted: true });
  });

  it('passes stdin then EOF, env and cwd; captures both streams and the exit code', async () => {
    const r = await run('read line; echo "got:$line:$FOO:$(pwd)"; echo warn >&2; exit 7', { cwd, env: { ...process.env, FOO: 'bar' }, stdin: 'hello' });
    expect(r).toMatchObject({
      stdout: `got:hello:bar:${cwd}\n`,
      stderr: 'warn\n',
      exitCode: 7,
      stdoutTruncated: false,
      stderrTruncated: false,
      aborted: false,
    });
    expect(r.durationMs).toBeGreaterThan(0);
    expect(r.signal).toBeUndefined();
    expect(r.spawnError).toBeUndefined();
  });
  it('without stdin the child sees EOF at once', async () => {
    expect((await run('cat; echo done', { cwd })).stdout).toBe('done\n');
  });
  it('cap boundary: exactly the cap is not truncated, one byte more is', async () => {
    expect(await run('printf 12345', { cwd, maxOutputBytes: 5 })).toMatchObject({ stdout: '12345', stdoutTruncated: false });
    expect(await run('printf 123456', { cwd, maxOutputBytes: 5 })).toMatchObject({ stdout: '12345', stdoutTruncated: true });
  });
  it('a multibyte character cut by the cap becomes a replacement character, never a throw', async () => {
    const r = await run('printf "aé"', { cwd, maxOutputBytes: 2 });
    expect(r.stdout).toBe('a\uFFFD');
  });
  it('resolves shortly after exit when a background child holds stdout, and kills that child', async () => {
    pidFile = new PidFile();
    const started = performance.now();
    const r = await run(`sleep 100 & echo $! > '${pidFile.file}'; echo parent done`, { cwd, drainMs: 50 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(r).toMatchObject({ stdout: 'parent done\n', exitCode: 0 });
    expect(await survivors(pidFile.pids())).toEqual([]);
  });
  it('output written by a background child during the drain window is kept', async () => {
    const r = await run('(sleep 0.02; echo late) & echo early', { cwd, drainMs: 500 });
    expect(r.stdout).toBe('early\nlate\n');
  });
  it('a child that escapes the process group (setsid) cannot hang the run', async () => {
    pidFile = new PidFile();
    const started = performance.now();
    const r = await run(`setsid sh -c 'echo $$ > "${pidFile.file}"; exec sleep 100' & sleep 0.1; echo out`, { cwd, drainMs: 50 });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(r.stdout).toBe('out\n');
  });
  it('abort: SIGTERM to the group, exit by signal recorded, output so far kept', async () => {
    const controller = new AbortController();
    const pending = run('echo before; sleep 100', { cwd, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    const r = await pending;
    expect(r).toMatchObject({ aborted: true, stdout: 'before\n', exitCode: null, signal: 'SIGTERM' });
  });
  it('timeoutMs ends the run like an abort, says so, and kills what the command left in the background', async () => {
    pidFile = new PidFile();
    const r = await run(`sleep 100 & echo $! > '${pidFile.file}'; echo before; sleep 100`, { cwd, timeoutMs: 1000 });
    expect(r).toMatchObject({ aborted: true, timedOut: true, stdout: 'before\n', exitCode: null });
    expect(await survivors(pidFile.pids())).toEqual([]);
  });
  it('abort: a shell that ignores SIGTERM, and its children, are killed after the grace', async () => {
    pidFile = new PidFile();
    const controller = new AbortController();
    const pending = run(`trap '' TERM; sleep 100 & echo $! > '${pidFile.file}'; wait`, { cwd, signal: controller.signal, killGraceMs: 100 });
    const [sleeper] = await waitForPids(pidFile);
    controller.abort();
    expect(await pending).toMatchObject({ aborted: true, exitCode: null, signal: 'SIGKILL' });
    expect(await survivors([sleeper as number])).toEqual([]);
  });
  it('a run that ends before its timeout is not marked timed out', async () => {
    const r = await run('echo fast', { cwd, timeoutMs: 10_000 });
    expect(r).toMatchObject({ aborted: false, stdout: 'fast\n', exitCode: 0 });
    expect(r.timedOut).toBeUndefined();
  });
  it('spawn failure of the shell itself (missing cwd) is a result, not a throw', async () => {
    const r = await run('true', { cwd: path.join(cwd, 'missing') });
    expect(r).toMatchObject({ exitCode: null, spawnError: `working directory does not exist: ${path.join(cwd, 'missing')}` });
  });
  it('a file as cwd is reported as such', async () => {
    const r = await run('true', { cwd: '/etc/hostname' });
    expect(r.spawnError).toBe('working directory is not a directory: /etc/hostname');
  });
  it('many concurrent runs stay independent', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => run(`cat; echo " ${i}"`, { cwd, stdin: `in${i}` })));
    results.forEach((r, i) => expect(r.stdout).toBe(`in${i} ${i}\n`));
  });
});
