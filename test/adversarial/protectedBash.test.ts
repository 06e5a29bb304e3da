import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { protectedBashReason } from '../../src/permissions/protectedBash';

/**
 * Self-protection through the shell: a model that wants to rewrite the hook configuration with
 * Bash tries every verb and spelling — redirections, tee, cp/mv/sed -i, quotes split inside
 * the name, backslashes, globs, `bash -c`, `eval`, `$(…)`, a heredoc fed to sh, `cd` then a
 * relative name, a symlinked alias of the workspace. Every one must ask; the same verbs on
 * ordinary files must not.
 */

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-protected-bash-adv-')));
const ws = path.join(base, 'ws');
mkdirSync(path.join(ws, '.claude', 'hooks'), { recursive: true });
mkdirSync(path.join(ws, 'scripts'));
mkdirSync(path.join(ws, 'src'));
writeFileSync(path.join(ws, 'scripts', 'guard.sh'), 'exit 0');
symlinkSync(ws, path.join(base, 'alias'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const scripts = new Set([path.join(ws, 'scripts', 'guard.sh')]);
const configs = new Set<string>();

const targets: { dir: string; file: string }[] = [
  { dir: '.claude', file: 'settings.json' },
  { dir: '.claude', file: 'settings.local.json' },
  { dir: '.claude/hooks', file: 'check.sh' },
  { dir: '.claude/agents', file: 'reviewer.md' },
  { dir: 'scripts', file: 'guard.sh' },
  { dir: '.', file: '.mcp.json' },
];
const harmless: { dir: string; file: string }[] = [
  { dir: 'src', file: 'index.ts' },
  { dir: 'scripts', file: 'build.sh' },
  { dir: '.claude/commands', file: 'deploy.md' },
  { dir: '.', file: 'README.md' },
];

/** Ways to write `p` (the file as a path from the workspace) with Bash. */
const verbs: ((p: string, t: { dir: string; file: string }) => string)[] = [
  (p) => `echo '{}' > ${p}`,
  (p) => `echo x >>${p}`,
  (p) => `printf x | tee -a ${p} >/dev/null`,
  (p) => `cp /tmp/x ${p}`,
  (p) => `mv /tmp/x "${p}"`,
  (p) => `sed -i 's/a/b/' '${p}'`,
  (p) => `bash -c "echo > ${p}"`,
  (p) => `eval 'echo > ${p}'`,
  (p) => `x=$(echo > ${p})`,
  (p) => `sh <<'EOF'\necho > ${p}\nEOF`,
  (p) => `true; rm -f ./${p}`,
  (p) => `ln -sf /tmp/evil ${path.join(base, 'alias', p)}`,
  (_p, t) => `cd ${t.dir} && echo > ${t.file}`,
  (p) => `dd of=${p} if=/dev/null`,
];
/** Hostile spellings of the same path that a shell reads as the same name. */
const spellings: ((p: string) => string)[] = [
  (p) => p,
  (p) => p.replace(/^\.c/, '.c""'),
  (p) => p.replace(/^\.claude/, ".cla'ude'"),
  (p) => p.replace(/^\.claude/, '.cl\\aude'),
  (p) => `./${p}`,
  (p) => `src/../${p}`,
  (p) => p.replace(/settings\.json$/, 'set*.json'),
];

it('[adversarial] every shell spelling that writes the hook configuration asks; ordinary writes do not', () => {
  const failures: string[] = [];
  let cases = 0;
  for (const t of [...targets, ...harmless]) {
    const expected = targets.includes(t);
    const p = path.posix.join(t.dir, t.file);
    for (const verb of verbs)
      for (const spell of spellings) {
        const command = verb(spell(p), t);
        cases++;
        if ((protectedBashReason(command, ws, scripts, configs) !== undefined) !== expected) failures.push(`${expected ? 'missed' : 'over-asked'}: ${command}`);
      }
  }
  console.log(`[adversarial] protected-bash: ${cases} commands, ${failures.length} failures`);
  expect(failures).toEqual([]);
});
