import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GLOB_MAX_RESULTS, createGlobTool } from '../../../../src/agent/tools/globTool';
import type { GlobResponse } from '../../../../src/agent/tools/globTool';
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

describe.each(ENGINES)('Glob on $name', (engine) => {
  const glob = createGlobTool({ ripgrep: engine.ripgrep });

  it('runs on the engine it names in the result', async () => {
    await ws.write('a.txt', 'x');
    expect(((await glob.execute({ pattern: '*.txt' }, makeContext(ws))).data as GlobResponse).engine).toBe(engine.name);
  });

  it('is read-only and needs no approval', () => {
    expect(glob).toMatchObject({ name: 'Glob', readOnly: true, needsApproval: false });
    expect(glob.summarize({ pattern: '**/*.ts', path: 'src' })).toBe('**/*.ts in src');
  });

  it('returns absolute paths, newest first, skipping node_modules and .git but not dotfiles', async () => {
    const a = await ws.write('src/a.ts', 'a');
    const b = await ws.write('src/deep/b.ts', 'b');
    const dot = await ws.write('.config/c.ts', 'c');
    await ws.write('node_modules/pkg/index.ts', 'x');
    await ws.write('.git/hooks/x.ts', 'x');
    await ws.write('src/readme.md', 'x');
    await touch(a, 300);
    await touch(b, 100);
    await touch(dot, 200);
    const r = await glob.execute({ pattern: '**/*.ts' }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(r.content).toBe([b, dot, a].join('\n'));
    expect(r.data).toMatchObject({ filenames: [b, dot, a], numFiles: 3, truncated: false } satisfies Partial<GlobResponse>);
  });

  it('searches under path, and includes node_modules when the pattern names it', async () => {
    await ws.write('src/a.ts', 'a');
    const inNm = await ws.write('node_modules/pkg/index.ts', 'x');
    const r = await glob.execute({ pattern: '*.ts', path: 'src' }, makeContext(ws));
    expect(r.content).toBe(path.join(ws.root, 'src/a.ts'));
    const nm = await glob.execute({ pattern: 'node_modules/**/*.ts' }, makeContext(ws));
    expect(nm.content).toBe(inNm);
  });

  it('accepts an absolute pattern by splitting off its directory', async () => {
    const a = await ws.write('src/a.ts', 'a');
    const r = await glob.execute({ pattern: path.join(ws.root, 'src/**/*.ts') }, makeContext(ws));
    expect(r.content).toBe(a);
  });

  it('says when nothing matches', async () => {
    const r = await glob.execute({ pattern: '**/*.rs' }, makeContext(ws));
    expect(r).toMatchObject({ isError: false, content: `No files found matching "**/*.rs" in ${ws.root}` });
  });

  it(`caps results at ${GLOB_MAX_RESULTS} and says they are truncated`, async () => {
    for (let i = 0; i < GLOB_MAX_RESULTS + 20; i++) await ws.write(`many/f${String(i).padStart(3, '0')}.txt`, '');
    const r = await glob.execute({ pattern: 'many/*.txt' }, makeContext(ws));
    const data = r.data as GlobResponse;
    expect(data.numFiles).toBe(GLOB_MAX_RESULTS);
    expect(data.truncated).toBe(true);
    expect(r.content).toContain(`showing ${GLOB_MAX_RESULTS} of ${GLOB_MAX_RESULTS + 20} matches`);
  });

  it('refuses .. in the pattern and a path outside the workspace; does not follow symlinks out', async () => {
    await fs.writeFile(path.join(ws.outside, 'secret.ts'), 's');
    const up = await glob.execute({ pattern: '../outside/*.ts' }, makeContext(ws));
    expect(up.isError).toBe(true);
    expect(up.content).toContain('".."');
    const out = await glob.execute({ pattern: '*.ts', path: ws.outside }, makeContext(ws));
    expect(out).toMatchObject({ isError: true, content: `Path ${ws.outside} is outside the workspace ${ws.root}.` });
    await fs.symlink(ws.outside, path.join(ws.root, 'linkdir'));
    const viaLink = await glob.execute({ pattern: '**/*.ts' }, makeContext(ws));
    expect(viaLink.content).not.toContain('secret.ts');
  });

  it('fails clearly for a missing directory or a file given as path', async () => {
    const missing = await glob.execute({ pattern: '*', path: 'nope' }, makeContext(ws));
    expect(missing).toMatchObject({ isError: true, content: `Directory does not exist: ${path.join(ws.root, 'nope')}` });
    await ws.write('f.txt', '');
    expect((await glob.execute({ pattern: '*', path: 'f.txt' }, makeContext(ws))).content).toContain('is not a directory');
  });
});

describe.each(ENGINES)('Glob on $name: ignore rules', (engine) => {
  const glob = createGlobTool({ ripgrep: engine.ripgrep });

  it('still skips .git when the workspace path merely contains ".git" in a name', async () => {
    const root = path.join(ws.base, 'my.git-things');
    await fs.mkdir(path.join(root, '.git'), { recursive: true });
    await fs.writeFile(path.join(root, '.git', 'x.ts'), '');
    await fs.writeFile(path.join(root, 'y.ts'), '');
    const r = await glob.execute({ pattern: '**/*.ts' }, makeContext(ws, { cwd: root, workspaceRoot: root }));
    expect(r.content).toBe(path.join(root, 'y.ts'));
  });

  it.each(['..*/outside/*', '..?(x)/**/secret*', '..!(y)/outside/*', '..*/**/*'])(
    'never lists the parent directory through an extglob such as %s (docs/security.md)',
    async (pattern) => {
      await fs.writeFile(path.join(ws.outside, 'secret.txt'), 'x');
      await ws.write('a/b.txt', 'x');
      const r = await glob.execute({ pattern }, makeContext(ws));
      expect(r.isError).toBe(false);
      expect(r.content).not.toContain(ws.outside);
      expect(r.content).not.toContain('secret.txt');
      expect((r.data as GlobResponse).filenames.every((f) => f.startsWith(`${ws.root}${path.sep}`))).toBe(true);
    },
  );

  it('leaves out symlinks that land outside the search directory, and files Read rules deny (docs/security.md)', async () => {
    await fs.writeFile(path.join(ws.outside, 'key.pem'), 'x');
    await fs.symlink(path.join(ws.outside, 'key.pem'), path.join(ws.root, 'key.pem'));
    const secret = await ws.write('inner/secret.env', 'x');
    const ok = await ws.write('app.env', 'x');
    await fs.symlink(secret, path.join(ws.root, 'alias.env'));
    const ctx = makeContext(ws, { readDeniedBy: (abs, real) => (abs === secret || real === secret ? 'Read(inner/secret.env)' : undefined) });
    const r = await glob.execute({ pattern: '**/*.{env,pem}' }, ctx);
    expect((r.data as GlobResponse).filenames).toEqual([ok]);
    expect(r.content).toContain('1 file(s) hidden by permission rules');
    expect(r.content).not.toContain('secret.env');
  });
});
