import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveCommandTargets } from '../../../../src/hooks/config/commandTargets';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-targets-')));
mkdirSync(path.join(root, 'sub'));
writeFileSync(path.join(root, 'package.json'), JSON.stringify({ main: 'lib/main.js', scripts: { hook: 'guard --fast && node tools/x', prehook: 'true' } }));
mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
writeFileSync(path.join(root, 'node_modules', '.bin', 'guard'), '');
writeFileSync(path.join(root, 'Makefile'), '-include extra.mk\nhook:\n\t@./scripts/check\n\tpython3 -m tools.lint\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const rel = async (command: string, args?: readonly string[]): Promise<string[]> =>
  (await resolveCommandTargets(command, args, root)).map((f) => path.relative(root, f).split(path.sep).join('/'));

describe('resolveCommandTargets', () => {
  it.each([
    ['bash -c "echo hi"', []],
    ['python3 -c "import os"', []],
    ['node -e "1" guard', []],
    ['bash -s guard', []],
    ['bash "$SCRIPT"', []],
    ['bash ~/guard', []],
    ['bash ../outside', []],
    ['echo guard', []],
    ['npm install guard', []],
    ['npx prettier --check .', []],
  ])('%s names no workspace file it runs', async (command, expected) => {
    expect(await rel(command)).toEqual(expected);
  });

  it('follows an npm script to its node_modules/.bin program and the files it runs, with pre/post scripts', async () => {
    expect(await rel('npm run -s hook')).toEqual(['package.json', '.npmrc', 'node_modules/.bin/guard', 'tools/x', 'tools/x.js']);
  });

  it('follows make into its includes and recipe lines', async () => {
    expect(await rel('make -s hook')).toEqual([
      'GNUmakefile',
      'makefile',
      'Makefile',
      'extra.mk',
      'scripts/check',
      'tools/__init__.py',
      'tools/lint.py',
      'tools/lint/__init__.py',
      'tools/lint/__main__.py',
    ]);
  });

  it('node . reads the package main; exec form and $CLAUDE_PROJECT_DIR resolve like the shell form', async () => {
    expect(await rel('node .')).toEqual(['package.json', 'lib/main.js', 'index.js']);
    expect(await rel('bash', ['$CLAUDE_PROJECT_DIR/sub/guard'])).toEqual(['sub/guard']);
    expect(await rel('cd "${CLAUDE_PROJECT_DIR}/sub" && sh guard')).toEqual(['sub/guard', 'guard']);
  });
});

describe('resolveCommandTargets bounds', () => {
  it('a Makefile whose recipes re-run make over and over resolves quickly and still pins the Makefile', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-targets-loop-')));
    try {
      writeFileSync(path.join(dir, 'Makefile'), `hook:\n${'\tmake -C . hook\n'.repeat(64)}`);
      const started = Date.now();
      const files = await resolveCommandTargets('make hook', undefined, dir);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(files).toContain(path.join(dir, 'Makefile'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
