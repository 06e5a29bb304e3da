import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { hookScriptPaths, protectedWriteOf } from '../../src/permissions/protectedWrites';
import type { LoadedHook } from '../../src/hooks/config/loadedHook';

/**
 * Protected writes under hostile spellings: a model that wants to rewrite `.claude/settings.json`
 * or a hook's script tries `..` detours, `./` and doubled slashes, a symlinked alias of the
 * workspace, a symlink to the file or its folder, relative paths from a subfolder. Every
 * spelling must still ask (a reason is returned); the plain neighbours must not.
 */

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-protected-')));
const ws = path.join(base, 'ws');
const alias = path.join(base, 'alias');
mkdirSync(path.join(ws, '.claude', 'hooks'), { recursive: true });
mkdirSync(path.join(ws, 'scripts'));
mkdirSync(path.join(ws, 'src'));
writeFileSync(path.join(ws, '.claude', 'settings.json'), '{}');
writeFileSync(path.join(ws, 'scripts', 'policy.sh'), 'exit 0');
symlinkSync(ws, alias);
symlinkSync(path.join(ws, '.claude'), path.join(ws, 'src', 'conf'));
symlinkSync(path.join(ws, 'scripts', 'policy.sh'), path.join(ws, 'src', 'p.sh'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

// The hook's command names its script through the symlinked alias of the workspace.
const scripts = hookScriptPaths([
  { scripts: [{ path: 'scripts/policy.sh', digest: 'sha256:x', file: path.join(alias, 'scripts', 'policy.sh') }] } as unknown as LoadedHook,
]);

it('[adversarial] every spelling of a protected file asks; its plain neighbours do not', () => {
  const targets = ['.claude/settings.json', 'scripts/policy.sh', '.claude/hooks/new.sh', '.git/config'];
  const roots = [ws, alias, path.join(ws, 'src', '..'), `${ws}/./`, `${ws}//`];
  const cases: { file: string; cwd: string; protectedExpected: boolean }[] = [];
  for (const root of roots) for (const t of targets) cases.push({ file: path.join(root, t).replace(ws + '/', `${root}/`), cwd: ws, protectedExpected: true });
  for (const t of targets) cases.push({ file: `../${t}`, cwd: path.join(ws, 'src'), protectedExpected: true });
  for (const t of targets) cases.push({ file: `./src/../${t}`, cwd: ws, protectedExpected: true });
  cases.push({ file: 'src/conf/settings.json', cwd: ws, protectedExpected: true }, { file: 'src/p.sh', cwd: ws, protectedExpected: true });
  cases.push({ file: path.join(alias, 'src', 'conf', 'settings.json'), cwd: base, protectedExpected: true });
  for (const f of ['src/index.ts', 'scripts/other.sh', '.claude-notes.md', 'src/.gitignore', '.claude/commands/deploy.md'])
    cases.push({ file: f, cwd: ws, protectedExpected: false });

  const failures = cases.filter((c) => (protectedWriteOf({ file_path: c.file }, c.cwd, scripts) !== undefined) !== c.protectedExpected);
  console.log(`[adversarial] protected-writes: ${cases.length} spellings, ${failures.length} failures`);
  expect(failures).toEqual([]);
});
