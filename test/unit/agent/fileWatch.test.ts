import { mkdtemp, realpath, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileWatch, MAX_WATCHED_PATHS } from '../../../src/agent/fileWatch';
import type { FileChangeKind } from '../../../src/agent/fileWatch';

let dir: string;
let watch: FileWatch | undefined;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-watch-')));
});
afterEach(async () => {
  watch?.close();
  await rm(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('FileWatch (FileChanged watchPaths)', () => {
  it('reports change, unlink and add of a watched file, not of its neighbours', async () => {
    const file = path.join(dir, '.env');
    await writeFile(file, 'A=1\n');
    const seen: [string, FileChangeKind][] = [];
    watch = new FileWatch((f, kind) => seen.push([f, kind]));
    watch.add([file]);

    await writeFile(path.join(dir, 'other.txt'), 'x');
    await writeFile(file, 'A=2\n');
    await until(() => seen.length >= 1);
    await unlink(file);
    await until(() => seen.length >= 2);
    await writeFile(file, 'A=3\n');
    await until(() => seen.length >= 3);

    expect(seen).toEqual([
      [file, 'change'],
      [file, 'unlink'],
      [file, 'add'],
    ]);
  });

  it(`takes absolute paths only, at most ${MAX_WATCHED_PATHS}, and says what it skipped`, () => {
    const problems: string[] = [];
    watch = new FileWatch(
      () => undefined,
      (p) => problems.push(p),
    );
    watch.add(['relative/.env', 42, ...Array.from({ length: MAX_WATCHED_PATHS + 2 }, (_, i) => path.join(dir, `f${i}`))]);

    expect(problems[0]).toMatch(/"relative\/.env" is not an absolute path/);
    expect(problems[1]).toMatch(/42 is not an absolute path/);
    expect(problems.slice(2)).toHaveLength(2);
    expect(problems[2]).toMatch(new RegExp(`more than ${MAX_WATCHED_PATHS} watched paths`));
  });
});
