import { linkSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { protectedAliasOf } from '../../src/permissions/protectedAliases';
import { protectedWriteOf } from '../../src/permissions/protectedWrites';

/**
 * Protected files under another name, for the file tools: a repository that ships `.claude`,
 * `.vscode`, `.git`, `.idea` or `.mcp.json` as a symlink to an innocent-looking folder or file,
 * and hard links (made by an earlier command) to every kind of protected file. Writing the
 * alias must ask; an ordinary symlinked folder and hard links between ordinary files must not.
 */

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-protected-aliases-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Protected files (relative), each made in its own workspace so the symlink variants do not collide. */
const protectedFiles = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/hooks/check.sh',
  '.claude/agents/reviewer.md',
  '.claude/skills/deploy/SKILL.md',
  '.vscode/settings.json',
  '.vscode/tasks.json',
  '.git/config',
  '.idea/workspace.xml',
  '.mcp.json',
  'scripts/guard.sh',
];
const ordinary = ['src/index.ts', '.claude/commands/deploy.md', '.claude/skills/deploy/notes.md', 'README.md'];

let n = 0;
function workspace(): string {
  const ws = path.join(base, `ws${n++}`);
  for (const f of [...protectedFiles, ...ordinary]) {
    mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
    writeFileSync(path.join(ws, f), 'x');
  }
  return ws;
}
const scriptsOf = (ws: string): Set<string> => new Set([path.join(ws, 'scripts', 'guard.sh')]);
const asks = (ws: string, file: string): boolean =>
  (protectedWriteOf({ file_path: file }, ws, scriptsOf(ws)) ?? protectedAliasOf({ file_path: file }, ws, scriptsOf(ws))) !== undefined;

it('[adversarial] a symlinked protected folder or file and hard links to protected files ask; ordinary aliases do not', () => {
  const failures: string[] = [];
  let cases = 0;
  const expect1 = (ws: string, file: string, expected: boolean, what: string): void => {
    cases++;
    if (asks(ws, file) !== expected) failures.push(`${expected ? 'missed' : 'over-asked'}: ${what} (${file})`);
  };
  // The repository ships the protected name as a symlink to a plain-looking one.
  for (const [link, real] of [
    ['.claude', 'conf'],
    ['.vscode', 'editor'],
    ['.git', 'vcs'],
    ['.idea', 'ide'],
    ['.mcp.json', 'mcp.json'],
  ] as const) {
    const ws = workspace();
    renameSync(path.join(ws, link), path.join(ws, real));
    symlinkSync(real, path.join(ws, link));
    for (const f of protectedFiles.filter((p) => p === link || p.startsWith(`${link}/`))) {
      const alias = real + f.slice(link.length);
      expect1(ws, alias, true, `${link} -> ${real}`);
      expect1(ws, path.join(ws, alias), true, `${link} -> ${real}, absolute`);
      expect1(ws, `src/../${alias}`, true, `${link} -> ${real}, detour`);
    }
    for (const f of ordinary.filter((p) => p.startsWith(`${link}/`))) expect1(ws, real + f.slice(link.length), false, `${link} -> ${real}, content folder`);
    expect1(ws, `${real}-new/x.json`, false, 'a sibling of the alias');
  }
  // Hard links to every protected file, at the root and in a subfolder; then between ordinary files.
  const ws = workspace();
  protectedFiles.forEach((f, i) => {
    for (const name of [`notes${i}.txt`, `src/data${i}.json`]) {
      linkSync(path.join(ws, f), path.join(ws, name));
      expect1(ws, name, true, `hard link to ${f}`);
    }
  });
  linkSync(path.join(ws, 'src/index.ts'), path.join(ws, 'src/index-copy.ts'));
  expect1(ws, 'src/index-copy.ts', false, 'hard link between ordinary files');
  symlinkSync('src', path.join(ws, 'lib'));
  expect1(ws, 'lib/index.ts', false, 'an ordinary symlinked folder');
  console.log(`[adversarial] protected-aliases: ${cases} aliases, ${failures.length} failures`);
  expect(failures).toEqual([]);
});
