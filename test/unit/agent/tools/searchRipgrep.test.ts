import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../../../src/agent/tools/globTool';
import type { GlobResponse } from '../../../../src/agent/tools/globTool';
import { createGrepTool } from '../../../../src/agent/tools/grepTool';
import type { GrepResponse } from '../../../../src/agent/tools/grepTool';
import { RG_MAX_OUTPUT_BYTES, RipgrepLocator } from '../../../../src/agent/tools/ripgrep';
import { ENGINES, RG_ENGINE as RG } from './searchEngines';
import { makeContext, makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const grep = createGrepTool({ ripgrep: RG.ripgrep });
const glob = createGlobTool({ ripgrep: RG.ripgrep });
const jsGrep = createGrepTool({ ripgrep: false });

async function touch(p: string, secondsAgo: number): Promise<void> {
  const t = new Date(Date.now() - secondsAgo * 1000);
  await fs.utimes(p, t, t);
}

describe('Grep on ripgrep: what Claude Code searches', () => {
  it('respects .gitignore (in a git repository), .ignore and .rgignore, at any depth', async () => {
    await fs.mkdir(path.join(ws.root, '.git'));
    await ws.write('.gitignore', 'build/\n');
    await ws.write('sub/.ignore', 'gen.txt\n');
    await ws.write('.rgignore', '*.log\n');
    const kept = await ws.write('src/a.txt', 'needle');
    await ws.write('build/out.txt', 'needle');
    await ws.write('sub/gen.txt', 'needle');
    await ws.write('app.log', 'needle');
    const r = await grep.execute({ pattern: 'needle' }, makeContext(ws));
    expect((r.data as GrepResponse).filenames).toEqual([kept]);
  });

  it('searches hidden files and directories, but never .git or other VCS directories', async () => {
    const env = await ws.write('.env.example', 'needle');
    const cfg = await ws.write('.github/workflows/ci.yml', 'needle');
    await touch(env, 10);
    await touch(cfg, 20);
    await ws.write('.git/config', 'needle');
    await ws.write('.hg/store', 'needle');
    const r = await grep.execute({ pattern: 'needle' }, makeContext(ws));
    expect((r.data as GrepResponse).filenames).toEqual([env, cfg]);
  });

  it.each([
    ['(?i)foo', 'FOO\nfoo\nbar\n', ['1:FOO', '2:foo']],
    ['x(?i:AB)y', 'xaby\nXABY\n', ['1:xaby']],
    ['\\p{Greek}+', 'alpha\nαβγ\n', ['2:αβγ']],
    ['^[[:alpha:]]+$', 'abc\nab1\n', ['1:abc']],
    ['\\bword\\b', 'a word here\nswordfish\n', ['1:a word here']],
    ['colou?r', 'color\ncolour\n', ['1:color', '2:colour']],
  ])('reads %s in Rust regex syntax', async (pattern, text, lines) => {
    const f = await ws.write('t.txt', text);
    const r = await grep.execute({ pattern, output_mode: 'content' }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(r.content).toBe(lines.map((l) => `${f}:${l}`).join('\n'));
  });

  it("gives the model ripgrep's own message for a pattern Rust regex rejects (look-around)", async () => {
    await ws.write('t.txt', 'x');
    const r = await grep.execute({ pattern: 'foo(?=bar)' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('Invalid regular expression "foo(?=bar)"');
    expect(r.content).toMatch(/look-around|lookaround|not supported/i);
  });

  it('multiline: a pattern may span lines, "." matches newlines', async () => {
    const f = await ws.write('m.txt', 'struct A {\n  x: i32,\n}\nother\n');
    const r = await grep.execute({ pattern: 'struct A \\{.*?\\}', multiline: true, output_mode: 'content' }, makeContext(ws));
    expect(r.content).toBe([`${f}:1:struct A {`, `${f}:2:  x: i32,`, `${f}:3:}`].join('\n'));
    const js = await jsGrep.execute({ pattern: 'a', multiline: true }, makeContext(ws));
    expect(js).toMatchObject({ isError: true });
    expect(js.content).toContain('multiline needs ripgrep');
  });

  it("type narrows to a ripgrep file type; an unknown type is rg's error", async () => {
    const rs = await ws.write('src/main.rs', 'fn needle() {}');
    await ws.write('src/main.py', 'needle = 1');
    const r = await grep.execute({ pattern: 'needle', type: 'rust' }, makeContext(ws));
    expect((r.data as GrepResponse).filenames).toEqual([rs]);
    const bad = await grep.execute({ pattern: 'needle', type: 'nosuchtype' }, makeContext(ws));
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('nosuchtype');
  });

  it('a glob parameter with several globs (space or comma separated) matches any of them', async () => {
    const a = await ws.write('a.ts', 'n');
    const b = await ws.write('b.tsx', 'n');
    await ws.write('c.js', 'n');
    for (const g of ['*.ts *.tsx', '*.ts,*.tsx', '*.{ts,tsx}']) {
      const r = await grep.execute({ pattern: 'n', glob: g }, makeContext(ws));
      expect([...(r.data as GrepResponse).filenames].sort()).toEqual([a, b]);
    }
  });
});

describe.each(ENGINES)('Grep on $name: context, paging', (engine) => {
  const tool = createGrepTool({ ripgrep: engine.ripgrep });

  it('-A/-B/-C show context lines as path-N-text, with -- between groups', async () => {
    const f = await ws.write('c.txt', ['l1', 'hit2', 'l3', 'l4', 'l5', 'l6', 'hit7', 'l8'].join('\n'));
    const r = await tool.execute({ pattern: 'hit', output_mode: 'content', '-C': 1 }, makeContext(ws));
    expect(r.content).toBe([`${f}-1-l1`, `${f}:2:hit2`, `${f}-3-l3`, '--', `${f}-6-l6`, `${f}:7:hit7`, `${f}-8-l8`].join('\n'));
    const after = await tool.execute({ pattern: 'hit7', output_mode: 'content', '-A': 1, '-B': 0 }, makeContext(ws));
    expect(after.content).toBe([`${f}:7:hit7`, `${f}-8-l8`].join('\n'));
  });

  it('offset and head_limit page through the entries, and the result says which it shows', async () => {
    const f = await ws.write('p.txt', Array.from({ length: 10 }, (_, i) => `hit${i + 1}`).join('\n'));
    const page = await tool.execute({ pattern: 'hit', output_mode: 'content', offset: 3, head_limit: 2 }, makeContext(ws));
    expect(page.content.split('\n').slice(0, 2)).toEqual([`${f}:4:hit4`, `${f}:5:hit5`]);
    expect(page.content).toContain('showing entries 4–5');
    expect(page.data).toMatchObject({ appliedLimit: 2, appliedOffset: 3, numLines: 2 });
    const all = await tool.execute({ pattern: 'hit', output_mode: 'content', head_limit: 0 }, makeContext(ws));
    expect(all.content.split('\n')).toHaveLength(10);
    expect(all.content).not.toContain('truncated');
  });

  it('never shows a denied file, not even as context of another', async () => {
    await ws.write('secret.env', 'TOKEN=hunter2\nnext');
    const ok = await ws.write('ok.txt', 'TOKEN=public\nnext');
    const ctx = makeContext(ws, { readDeniedBy: (abs) => (abs.endsWith('secret.env') ? 'Read(secret.env)' : undefined) });
    const r = await tool.execute({ pattern: 'TOKEN', output_mode: 'content', '-A': 1 }, ctx);
    expect(r.content).toBe(`${ok}:1:TOKEN=public\n${ok}-2-next\n(1 file(s) hidden by permission rules.)`);
  });
});

describe('Glob on ripgrep: what Claude Code lists', () => {
  it('lists files that ignore files hide from Grep (Glob reads no ignore file), newest first across directories', async () => {
    await fs.mkdir(path.join(ws.root, '.git'));
    await ws.write('.gitignore', 'dist/\n');
    const a = await ws.write('z/deep/a.js', '');
    const b = await ws.write('dist/b.js', '');
    const c = await ws.write('c.js', '');
    await touch(a, 10);
    await touch(b, 30);
    await touch(c, 20);
    const r = await glob.execute({ pattern: '**/*.js' }, makeContext(ws));
    expect((r.data as GlobResponse).filenames).toEqual([a, c, b]);
  });
});

describe.each(ENGINES)('Glob on $name: pattern rules', (engine) => {
  it('a pattern without "/" matches file names at any depth, as ripgrep globs do', async () => {
    const a = await ws.write('x/y/a.md', '');
    const r = await createGlobTool({ ripgrep: engine.ripgrep }).execute({ pattern: '*.md' }, makeContext(ws));
    expect((r.data as GlobResponse).filenames).toEqual([a]);
  });
});

describe('RipgrepLocator', () => {
  it('a broken rg falls back to the JavaScript search with one diagnostic, not a failure', async () => {
    const fake = await ws.write('bin/rg', '#!/bin/sh\necho "rg: broken" >&2\nexit 3\n');
    await fs.chmod(fake, 0o755);
    const said: string[] = [];
    const locator = new RipgrepLocator({ candidates: [fake, path.join(ws.root, 'missing-rg')], searchPath: false, onDiagnostic: (m) => said.push(m) });
    const tool = createGrepTool({ ripgrep: locator });
    await ws.write('a.txt', 'needle');
    for (let i = 0; i < 2; i++) {
      const r = await tool.execute({ pattern: 'needle' }, makeContext(ws));
      expect(r.isError).toBe(false);
      expect((r.data as GrepResponse).engine).toBe('javascript');
    }
    const globbed = await createGlobTool({ ripgrep: locator }).execute({ pattern: '*.txt' }, makeContext(ws));
    expect((globbed.data as GlobResponse).engine).toBe('javascript');
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('rg: broken');
    expect(said[0]).toContain('missing-rg');
  });

  it('takes the first candidate that works, before rg on PATH', async () => {
    const real = await RG.ripgrep.get();
    expect(real, 'rg must be installed for these tests').toBeDefined();
    const link = path.join(ws.base, 'my-rg');
    await fs.symlink((real as { path: string }).path, link);
    const found = await new RipgrepLocator({ candidates: [path.join(ws.root, 'nope'), link], searchPath: false }).get();
    expect(found?.path).toBe(link);
    expect(found?.version).toMatch(/^ripgrep \d/);
  });
});

describe('ripgrep arguments from the model stay values', () => {
  it('a pattern, glob or type that starts with "-" is never read as an rg flag', async () => {
    const f = await ws.write('-x.txt', '--files\n');
    const r = await grep.execute({ pattern: '--files', output_mode: 'content', glob: '-x.txt' }, makeContext(ws));
    expect(r.content).toBe(`${f}:1:--files`);
    const t = await grep.execute({ pattern: 'x', type: '--follow' }, makeContext(ws));
    expect(t.isError).toBe(true);
    const g = await glob.execute({ pattern: '-x.txt' }, makeContext(ws));
    expect((g.data as GlobResponse).filenames).toEqual([f]);
  });
});

describe('No silent truncation: a search stopped by a limit says what it did not search', () => {
  it('ripgrep: output past the cap is not read, and the result says files and lines are missing', async () => {
    const line = `hit ${'x'.repeat(90)}\n`;
    await ws.write('huge.txt', line.repeat(Math.ceil((RG_MAX_OUTPUT_BYTES + 1024 * 1024) / line.length)));
    const r = await grep.execute({ pattern: 'hit', output_mode: 'content', head_limit: 1 }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(r.content).toContain(`passed ${RG_MAX_OUTPUT_BYTES / 1024 / 1024} MB and the rest was not read`);
  });

  it('the JavaScript fallback: past its file cap it names where it stopped', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await ws.write(`${name}.txt`, 'hit');
    const r = await createGrepTool({ ripgrep: false, maxFilesScanned: 3 }).execute({ pattern: 'hit' }, makeContext(ws));
    expect(r.content).toContain('Stopped after scanning 3 files (ripgrep is not available): files after c.txt');
    expect((r.data as GrepResponse).numFiles).toBe(3);
  });
});
