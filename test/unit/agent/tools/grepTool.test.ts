import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GREP_DEFAULT_HEAD_LIMIT, GREP_MAX_LINE_CHARS, compilePattern, createGrepTool } from '../../../../src/agent/tools/grepTool';
import type { GrepResponse } from '../../../../src/agent/tools/grepTool';
import { survivors } from '../../../support/processProbe';
import { ENGINES } from './searchEngines';
import { makeContext, makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function touch(p: string, secondsAgo: number): Promise<void> {
  const t = new Date(Date.now() - secondsAgo * 1000);
  await fs.utimes(p, t, t);
}

/** Live rg processes whose command line mentions `dir` (this test's workspace). */
function rgPidsFor(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (path.basename(argv[0] ?? '') === 'rg' && argv.some((a) => a.startsWith(dir))) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

describe.each(ENGINES)('Grep on $name', (engine) => {
  const grep = createGrepTool({ ripgrep: engine.ripgrep });

  it('runs on the engine it names in the result', async () => {
    await ws.write('a.txt', 'x');
    expect(((await grep.execute({ pattern: 'x' }, makeContext(ws))).data as GrepResponse).engine).toBe(engine.name);
  });

  it('is read-only and needs no approval', () => {
    expect(grep).toMatchObject({ name: 'Grep', readOnly: true, needsApproval: false });
    expect(grep.jsonSchema).toMatchObject({ properties: { '-i': { type: 'boolean' }, output_mode: { enum: ['content', 'files_with_matches', 'count'] } } });
  });

  it('lists matching files by default, newest first, skipping ignored node_modules, .git and binaries', async () => {
    await ws.write('.gitignore', 'node_modules/\n');
    const a = await ws.write('src/a.ts', 'const TODO = 1;\n');
    const b = await ws.write('src/b.ts', 'nothing here\n');
    const c = await ws.write('lib/c.js', '// TODO later\n');
    await ws.write('node_modules/x/index.js', 'TODO');
    await ws.write('.git/COMMIT_EDITMSG', 'TODO');
    await ws.write('bin.dat', Buffer.concat([Buffer.from('TODO'), Buffer.from([0, 1, 2])]));
    await touch(a, 100);
    await touch(c, 10);
    void b;
    const r = await grep.execute({ pattern: 'TODO' }, makeContext(ws));
    expect(r.content).toBe(`Found 2 file(s)\n${c}\n${a}`);
    expect(r.data).toMatchObject({ mode: 'files_with_matches', numFiles: 2, filenames: [c, a] } satisfies Partial<GrepResponse>);
    expect(r.data).not.toHaveProperty('appliedLimit');
  });

  it('content mode: path:line:text, -n on by default, -i, glob filter', async () => {
    const a = await ws.write('src/a.ts', 'alpha\nBeta\nbeta gamma\n');
    await ws.write('src/a.md', 'beta\n');
    const r = await grep.execute({ pattern: 'beta', output_mode: 'content', '-i': true, glob: '*.ts' }, makeContext(ws));
    expect(r.content).toBe(`${a}:2:Beta\n${a}:3:beta gamma`);
    const noNums = await grep.execute({ pattern: 'gamma', output_mode: 'content', '-n': false }, makeContext(ws));
    expect(noNums.content).toBe(`${a}:beta gamma`);
  });

  it('count mode reports matching lines per file', async () => {
    const a = await ws.write('a.txt', 'x\nx\ny\nx\n');
    const r = await grep.execute({ pattern: '^x$', output_mode: 'count' }, makeContext(ws));
    expect(r.content).toBe(`Found 3 match(es) in 1 file(s)\n${a}:3`);
  });

  it('searches a single file given as path, and supports path-style globs with braces', async () => {
    const a = await ws.write('src/deep/a.tsx', 'needle\n');
    await ws.write('other/a.tsx', 'needle\n');
    const one = await grep.execute({ pattern: 'needle', path: 'src/deep/a.tsx', output_mode: 'content' }, makeContext(ws));
    expect(one.content).toBe(`${a}:1:needle`);
    const braces = await grep.execute({ pattern: 'needle', glob: 'src/**/*.{ts,tsx}' }, makeContext(ws));
    expect(braces.content).toBe(`Found 1 file(s)\n${a}`);
  });

  it('caps with head_limit (and a default), and truncates long lines', async () => {
    await ws.write('many.txt', Array.from({ length: GREP_DEFAULT_HEAD_LIMIT + 10 }, () => 'hit').join('\n'));
    const def = await grep.execute({ pattern: 'hit', output_mode: 'content' }, makeContext(ws));
    expect((def.data as GrepResponse).numLines).toBe(GREP_DEFAULT_HEAD_LIMIT);
    expect(def.content).toContain('Results are truncated');
    const few = await grep.execute({ pattern: 'hit', output_mode: 'content', head_limit: 2 }, makeContext(ws));
    expect(few.content.split('\n').filter((l) => l.includes(':hit'))).toHaveLength(2);
    await ws.write('long.txt', `${'y'.repeat(GREP_MAX_LINE_CHARS * 2)}needle`);
    const long = await grep.execute({ pattern: 'needle', output_mode: 'content' }, makeContext(ws));
    expect(long.content).toContain('… [truncated]');
    for (let i = 0; i < 5; i++) await ws.write(`f/${i}.txt`, 'z');
    const files = await grep.execute({ pattern: 'z', path: 'f', head_limit: 3 }, makeContext(ws));
    expect((files.data as GrepResponse).filenames).toHaveLength(3);
    expect((files.data as GrepResponse).appliedLimit).toBe(3);
  });

  it('says when nothing matches', async () => {
    await ws.write('a.txt', 'abc');
    expect(await grep.execute({ pattern: 'zzz' }, makeContext(ws))).toMatchObject({ isError: false, content: `No matches found for "zzz" in ${ws.root}` });
  });

  it('fails clearly on an invalid regex, a missing path and a path outside', async () => {
    const bad = await grep.execute({ pattern: 'foo(' }, makeContext(ws));
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('Invalid regular expression "foo("');
    if (engine.name === 'ripgrep') expect(bad.content).toContain('unclosed group');
    const missing = await grep.execute({ pattern: 'x', path: 'nope' }, makeContext(ws));
    expect(missing).toMatchObject({ isError: true, content: `Path does not exist: ${path.join(ws.root, 'nope')}` });
    const out = await grep.execute({ pattern: 'x', path: '/etc' }, makeContext(ws));
    expect(out).toMatchObject({ isError: true, content: `Path /etc is outside the workspace ${ws.root}.` });
  });

  it('does not follow symlinks out of the workspace', async () => {
    await fs.writeFile(path.join(ws.outside, 'secret.txt'), 'password');
    await fs.symlink(ws.outside, path.join(ws.root, 'linkdir'));
    await fs.symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    const r = await grep.execute({ pattern: 'password' }, makeContext(ws));
    expect(r.content).toContain('No matches found');
  });

  it('stops when aborted', async () => {
    await ws.write('a.txt', 'x');
    const ac = new AbortController();
    ac.abort();
    expect((await grep.execute({ pattern: 'x' }, makeContext(ws, { signal: ac.signal }))).isError).toBe(true);
  });
});

describe.each(ENGINES)('Grep on $name: bounded and cancellable (docs/security.md), Read rules per file', (engine) => {
  const grep = createGrepTool({ ripgrep: engine.ripgrep });
  // (a+)+$ on "aaa…a!" backtracks exponentially: on the calling thread it would freeze the
  // process for hours; on the worker it is cut off by the time cap or by Stop.
  const evil = `${'a'.repeat(40)}!`;

  /**
   * A search that does not end by itself: for the JS engine a backtracking pattern; for
   * ripgrep (whose regex engine never backtracks) a named pipe nobody writes, which rg
   * waits on forever. Returns the input to pass to Grep.
   */
  async function runaway(): Promise<{ pattern: string; path?: string }> {
    if (engine.name === 'javascript') {
      await ws.write('a.txt', `${evil}\n`);
      return { pattern: '^(a+)+$' };
    }
    execFileSync('mkfifo', [path.join(ws.root, 'stuck.pipe')]);
    return { pattern: 'never', path: 'stuck.pipe' };
  }

  it('stops a runaway search at the time cap with a clear error, and no rg outlives it', async () => {
    const input = await runaway();
    const r = await createGrepTool({ timeoutMs: 300, ripgrep: engine.ripgrep }).execute(input, makeContext(ws));
    expect(r).toMatchObject({ isError: true });
    expect(r.content).toMatch(/^Grep stopped after 0\.3 s: /);
    expect(await survivors(rgPidsFor(ws.root))).toEqual([]);
  });

  it('Stop ends a runaway search promptly (rg is killed), and the event loop stays free meanwhile', async () => {
    const input = await runaway();
    const ac = new AbortController();
    let ticks = 0;
    let seen: number[] = [];
    const ticker = setInterval(() => {
      ticks++;
      if (seen.length === 0) seen = rgPidsFor(ws.root);
      if (ticks >= 5 && (engine.name === 'javascript' || seen.length > 0)) ac.abort();
    }, 20);
    const r = await grep.execute(input, makeContext(ws, { signal: ac.signal }));
    clearInterval(ticker);
    expect(r).toMatchObject({ isError: true, content: 'Grep was interrupted.' });
    expect(ticks).toBeGreaterThanOrEqual(5);
    if (engine.name === 'ripgrep') {
      expect(seen.length).toBeGreaterThan(0);
      expect(await survivors(seen, 0)).toEqual([]);
    }
  });

  it("hides files the session's Read rules deny, says how many, and never shows their content", async () => {
    await ws.write('inner/secret.env', 'TOKEN=hunter2');
    await ws.write('a.txt', 'TOKEN=public');
    await fs.symlink(path.join(ws.root, 'inner/secret.env'), path.join(ws.root, 'alias.txt'));
    const denied = new Set([path.join(ws.root, 'inner/secret.env')]);
    const ctx = makeContext(ws, {
      readDeniedBy: (abs, real) => (denied.has(abs) || (real !== undefined && denied.has(real)) ? 'Read(inner/secret.env)' : undefined),
    });
    for (const mode of ['content', 'files_with_matches', 'count'] as const) {
      const r = await grep.execute({ pattern: 'TOKEN', output_mode: mode }, ctx);
      expect(r.isError).toBe(false);
      expect(r.content).not.toContain('hunter2');
      expect(r.content).not.toContain('secret.env');
      expect(r.content).toContain('1 file(s) hidden by permission rules');
    }
    const direct = await grep.execute({ pattern: 'TOKEN', path: 'inner/secret.env', output_mode: 'content' }, ctx);
    expect(direct.content).not.toContain('hunter2');
  });
});

describe('compilePattern', () => {
  it('turns ripgrep leading inline flags into JS flags', () => {
    const re = compilePattern('(?i)hello', false);
    expect(re).toBeInstanceOf(RegExp);
    expect((re as RegExp).test('HELLO')).toBe(true);
    expect((compilePattern('a.b', true) as RegExp).flags).toBe('i');
  });
});
