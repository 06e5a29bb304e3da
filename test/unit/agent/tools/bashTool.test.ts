import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../../src/agent/tools/bashTool';
import { execaLauncher } from '../../../../src/shared/execaLauncher';
import { leanLauncher } from '../../../../src/shared/leanLauncher';
import type { BashResponse } from '../../../../src/agent/tools/bashTool';
import { ShellCwd } from '../../../../src/agent/tools/shellCwd';
import { isAlive, survivors } from '../../../support/processProbe';
import { makeContext, makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function waitForFile(p: string, timeoutMs = 5000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const text = (await fs.readFile(p, 'utf8')).trim();
      if (text !== '') return text;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${p}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// The tool runs on execa by default; both launchers keep its guarantees.
describe.each([
  { launcher: execaLauncher, bash: createBashTool() },
  { launcher: leanLauncher, bash: createBashTool({ launcher: leanLauncher }) },
])('Bash ($launcher.name launcher)', ({ launcher, bash }) => {
  it('needs approval, is not read-only, summarizes as the command', () => {
    expect(bash).toMatchObject({ name: 'Bash', readOnly: false, needsApproval: true });
    expect(bash.summarize({ command: 'npm test\n  -- --watch' })).toBe('npm test -- --watch');
  });

  it('runs in cwd and returns stdout with a Claude Code shaped response', async () => {
    await ws.write('hello.txt', 'hi');
    const r = await bash.execute({ command: 'pwd && ls' }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(r.content).toBe(`${ws.root}\nhello.txt`);
    // Claude Code's shape, key for key: stdout without its trailing newline.
    expect(r.data).toEqual({
      stdout: `${ws.root}\nhello.txt`,
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    } satisfies BashResponse);
  });

  it("combines stdout and stderr and reports a non-zero exit as an error, laid out as Claude Code's (exit code line first)", async () => {
    const r = await bash.execute({ command: 'echo out; echo err >&2; exit 3' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toBe('Exit code 3\nout\nerr');
    expect(r.data).toMatchObject({ stdout: 'out', stderr: 'err' });
  });

  it('says (no output) for a silent success, and gives commands empty stdin', async () => {
    expect((await bash.execute({ command: 'true' }, makeContext(ws))).content).toBe('(no output)');
    const r = await bash.execute({ command: 'cat; echo done' }, makeContext(ws));
    expect(r.content).toBe('done');
  });

  it('kills the process tree on timeout and says so', async () => {
    const pidFile = path.join(ws.root, 'pid');
    const started = Date.now();
    const r = await bash.execute({ command: `sleep 30 & echo $! > ${pidFile}; echo started; sleep 30`, timeout: 500 }, makeContext(ws));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.isError).toBe(true);
    expect(r.content).toBe('started\n(timed out after 0.5s; the process tree was killed)');
    expect(r.data).toMatchObject({ interrupted: false });
    const bgPid = Number(await waitForFile(pidFile));
    expect(await survivors([bgPid], 2000)).toEqual([]);
  });

  it('kills the process tree when the run is aborted, leaving no process', async () => {
    const pidFile = path.join(ws.root, 'pid');
    const ac = new AbortController();
    const pending = bash.execute({ command: `sleep 30 & echo $! > ${pidFile}; sleep 30` }, makeContext(ws, { signal: ac.signal }));
    const bgPid = Number(await waitForFile(pidFile));
    expect(isAlive(bgPid)).toBe(true);
    ac.abort();
    const r = await pending;
    expect(r).toMatchObject({ isError: true, content: '(interrupted)' });
    expect(r.data).toMatchObject({ interrupted: true });
    expect(await survivors([bgPid], 2000)).toEqual([]);
  });

  it('cuts long output in the middle and marks it', async () => {
    const small = createBashTool({ maxOutputChars: 100, launcher });
    const r = await small.execute({ command: 'echo START; seq 1 5000; echo END' }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(r.content.startsWith('START\n1\n')).toBe(true);
    expect(r.content).toMatch(/\n… \[\d+ characters truncated\] …\n/);
    expect(r.content).toMatch(/END\n\(output truncated: \d+ characters cut from the middle\)$/);
    expect((r.data as BashResponse).stdout.length).toBeGreaterThan(20_000);
  });

  it('passes extra env and reports a command that cannot start', async () => {
    const withEnv = createBashTool({ env: { HOOKWISE_TEST_VAR: 'yes' }, launcher });
    expect((await withEnv.execute({ command: 'echo $HOOKWISE_TEST_VAR' }, makeContext(ws))).content).toBe('yes');
    const r = await bash.execute({ command: 'echo hi' }, makeContext(ws, { cwd: path.join(ws.root, 'missing') }));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('Could not run the command');
  });

  it('reports command-not-found through the shell exit code', async () => {
    const r = await bash.execute({ command: 'definitely-not-a-command-hookwise' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Exit code 127\n[\s\S]*not found/);
  });
});

describe.each([
  { launcher: execaLauncher, bash: createBashTool() },
  { launcher: leanLauncher, bash: createBashTool({ launcher: leanLauncher }) },
])('Bash working directory between calls ($launcher.name launcher)', ({ bash }) => {
  it('a cd carries over even when the command exits non-zero, and the side channel adds nothing to the output', async () => {
    await fs.mkdir(path.join(ws.root, 'pkg'));
    const shellCwd = new ShellCwd(ws.root);
    const ctx = makeContext(ws, { shellCwd });

    const first = await bash.execute({ command: 'cd pkg && echo moved; exit 3' }, ctx);
    const second = await bash.execute({ command: 'pwd' }, ctx);

    expect(first).toMatchObject({ isError: true, content: 'Exit code 3\nmoved' });
    expect(shellCwd.current).toBe(path.join(ws.root, 'pkg'));
    expect(second).toMatchObject({ isError: false, content: path.join(ws.root, 'pkg') });
  });

  it('a command killed by its timeout leaves the directory as it was', async () => {
    await fs.mkdir(path.join(ws.root, 'pkg'));
    const shellCwd = new ShellCwd(ws.root);

    const result = await bash.execute({ command: 'cd pkg && sleep 5', timeout: 300 }, makeContext(ws, { shellCwd }));

    expect(result.content).toMatch(/timed out/i);
    expect((result.data as BashResponse).interrupted).toBe(false);
    expect(shellCwd.current).toBe(ws.root);
  });
});
