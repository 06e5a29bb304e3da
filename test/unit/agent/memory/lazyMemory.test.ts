import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LazyMemory } from '../../../../src/agent/memory/lazyMemory';
import { loadMemory } from '../../../../src/agent/memory/memoryFiles';

// The bounds of lazily loaded memory: only inside the project, below the cwd, within the budget.

let base = '';
let repo = '';
const put = async (file: string, text: string): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
};
const start = async (cwd: string): Promise<LazyMemory> => {
  const lazy = new LazyMemory(cwd, repo);
  lazy.reset(await loadMemory({ cwd, homeDir: path.join(base, 'home') }));
  return lazy;
};

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-lazy-')));
  repo = path.join(base, 'repo');
  await mkdir(path.join(base, 'home'), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

it('a CLAUDE.md linked to a file outside the project is not read; the problem names it', async () => {
  await put(path.join(base, 'secret.md'), 'SECRET');
  await put(path.join(repo, 'sub', 'a.ts'), '');
  await symlink(path.join(base, 'secret.md'), path.join(repo, 'sub', 'CLAUDE.md'));
  const lazy = await start(repo);
  const got = await lazy.touch(path.join(repo, 'sub', 'a.ts'));
  expect(got.files).toEqual([]);
  expect(got.problems).toEqual([`${path.join(repo, 'sub', 'CLAUDE.md')}: a link to a file outside the project; not loaded`]);
});

it('files outside the project, and folders at or above the cwd, load nothing lazily; the chat line lists what loaded', async () => {
  await put(path.join(repo, 'CLAUDE.md'), 'root');
  await put(path.join(repo, 'app', 'CLAUDE.md'), 'app');
  await put(path.join(repo, 'app', 'lib', 'CLAUDE.md'), 'lib');
  await put(path.join(base, 'elsewhere', 'CLAUDE.md'), 'elsewhere');
  const lazy = await start(path.join(repo, 'app'));
  expect((await lazy.touch(path.join(base, 'elsewhere', 'x.ts'))).files).toEqual([]);
  expect((await lazy.touch(path.join(repo, 'app', 'x.ts'))).files).toEqual([]);
  expect((await lazy.touch('lib/deep/x.ts')).files.map((f) => f.content)).toEqual(['lib']);
  const shown = lazy.withLoaded(await loadMemory({ cwd: path.join(repo, 'app'), homeDir: path.join(base, 'home') }));
  expect(shown?.files.map((f) => path.relative(repo, f.path))).toEqual(['CLAUDE.md', 'app/CLAUDE.md', 'app/lib/CLAUDE.md']);
});

it('lazily loaded files share the session budget: past it a file is cut, and the cut is reported', async () => {
  const big = 'x'.repeat(40_000);
  for (const name of ['a', 'b', 'c']) await put(path.join(repo, `${name}.md`), big);
  await put(path.join(repo, 'CLAUDE.md'), '@a.md @b.md @c.md');
  await put(path.join(repo, 'sub', 'CLAUDE.md'), 'y'.repeat(1000));
  const lazy = await start(repo);
  const got = await lazy.touch(path.join(repo, 'sub', 'f.ts'));
  expect(got.files[0]?.truncated).toBe(true);
  expect(got.files[0]?.content.length).toBeLessThan(1000);
  expect(got.problems[0]).toContain(`${path.join(repo, 'sub', 'CLAUDE.md')}: 1000 characters; cut to`);
});
