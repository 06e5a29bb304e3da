import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { protectedBashReason } from '../../src/permissions/protectedBash';

/**
 * The write forms the name checks of protectedBash.test.ts did not see:
 * brace expansion and ANSI-C quoting (`$'\x2e…'`), inside `bash -c`, nested shells, `eval` and a
 * heredoc fed to bash; `find` selecting a protected file by a case-folded or path pattern and
 * acting on it; `git apply`/`git am`/`patch` in any spelling; writers given a name known only at
 * run time. Each protected target must ask in every form; the same forms on ordinary files must not.
 */

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-protected-forms-')));
const ws = path.join(base, 'ws');
const files = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/hooks/check.sh',
  '.claude/agents/reviewer.md',
  '.claude/commands/deploy.md',
  '.mcp.json',
  '.vscode/settings.json',
  'scripts/guard.sh',
  'scripts/build.sh',
  'src/index.ts',
  'README.md',
];
for (const f of files) {
  mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
  writeFileSync(path.join(ws, f), 'x');
}
afterAll(() => rmSync(base, { recursive: true, force: true }));

const scripts = new Set([path.join(ws, 'scripts', 'guard.sh')]);
const configs = new Set<string>();
const targets = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/hooks/check.sh',
  '.claude/agents/reviewer.md',
  '.mcp.json',
  '.vscode/settings.json',
  'scripts/guard.sh',
];
const harmless = ['src/index.ts', '.claude/commands/deploy.md', 'README.md', 'scripts/build.sh'];

const hex = (ch: string): string => ch.charCodeAt(0).toString(16).padStart(2, '0');
const oct = (ch: string): string => ch.charCodeAt(0).toString(8).padStart(3, '0');
/** Spellings of `p` that only bash's own expansion turns back into `p` (plus values that are not files). */
const spellings: ((p: string) => string)[] = [
  (p) => `${p.slice(0, 2)}{${p[2]},}${p.slice(3)}`,
  (p) => `{${p},/nonexistent/x}`,
  (p) => {
    const i = p.search(/[a-z]/);
    return `${p.slice(0, i)}{${p[i]}..${p[i]}}${p.slice(i + 1)}`;
  },
  (p) => `$'\\x${hex(p[0] as string)}'${p.slice(1)}`,
  (p) => `$'\\${oct(p[0] as string)}${p.slice(1, 3)}'${p.slice(3)}`,
  (p) => `${p.slice(0, 3)}$'\\u00${hex(p[3] as string)}'${p.slice(4)}`,
  (p) => `"${p.slice(0, 3)}"$'${p.slice(3, 5)}'${p.slice(5)}`,
];
/** Ways to run a write of `w` (a spelling) that only bash parses. */
const runners: ((w: string) => string)[] = [
  (w) => `tee ${w} < /tmp/x > /dev/null`,
  (w) => `bash -c 'tee ${w.replace(/'/g, `'\\''`)} < /tmp/x'`,
  (w) => `bash -lc "cp /tmp/x ${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  (w) => `sh -c "bash -c 'sed -i s/a/b/ ${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/'/g, `'\\''`)}'"`,
  (w) => `bash <<'EOF'\ncp /tmp/x ${w}\nEOF`,
  (w) => `env -i bash -c 'ln -f /tmp/x ${w.replace(/'/g, `'\\''`)}'`,
  (w) => `find . -name README.md -exec bash -c 'tee ${w.replace(/'/g, `'\\''`)} < /tmp/x' \\;`,
];
/** find forms that select `p` without spelling it. */
const finds: ((p: string) => string)[] = [
  (p) => `find . -iname ${path.basename(p).toUpperCase()} -exec cp /tmp/x {} \\;`,
  (p) => `find . -ipath './${p.toUpperCase()}' -delete`,
  (p) => `find . -type f -name '${path.basename(p).slice(0, 3)}*' -execdir sh -c 'cat /tmp/x > {}' \\;`,
  (p) => `find ./ -iwholename './?${p.slice(1).toUpperCase()}' -fprint /tmp/list`,
  (p) => `find . -name ${path.basename(p)} | xargs sed -i s/a/b/`,
  (p) => `bash -c "find . -iname '${path.basename(p).toUpperCase()}' -ok rm {} +"`,
];

function check(command: string, expected: boolean, failures: string[]): void {
  const asked = protectedBashReason(command, ws, scripts, configs) !== undefined;
  if (asked !== expected) failures.push(`${expected ? 'missed' : 'over-asked'}: ${command}`);
}

it('[adversarial] brace, ANSI-C and nested-shell spellings and find patterns of protected files ask; of ordinary files they do not', () => {
  const failures: string[] = [];
  let cases = 0;
  for (const t of [...targets, ...harmless]) {
    const expected = targets.includes(t);
    for (const spell of spellings)
      for (const run of runners) {
        cases++;
        check(run(spell(t)), expected, failures);
      }
    for (const find of finds) {
      // `find . -name build.sh …` is harmless only when no protected file shares the pattern's name.
      cases++;
      check(find(t), expected, failures);
    }
  }
  console.log(`[adversarial] protected-bash forms: ${cases} commands, ${failures.length} failures`);
  expect(failures).toEqual([]);
});

it('[adversarial] git apply, git am and patch ask in every spelling; their read-only forms do not', () => {
  const asks = [
    'git apply x.diff',
    'git apply --index x.diff',
    'git -C . apply -p1 x.diff',
    'git -c core.quotepath=off apply - < x.diff',
    'git --no-pager apply --reject x.diff',
    'git am < x.mbox',
    'git -c alias.ap=apply ap x.diff',
    '/usr/bin/git apply x.diff',
    'sudo git apply x.diff',
    'env GIT_DIR=.git git apply x.diff',
    '{git,apply} x.diff',
    "$'\\x67'it apply x.diff",
    'patch -p1 < x.diff',
    '/usr/bin/patch -i x.diff',
    'timeout 5 patch -p0 -i y',
    "bash -c 'patch -p1' < x.diff",
    "find . -name '*.diff' -exec git apply {} \\;",
    'bash -c "git apply $\'x.diff\'"',
    'echo ok && git apply --stat x.diff && git apply x.diff',
  ];
  const quiet = [
    'git apply --check x.diff',
    'git apply --stat x.diff',
    'git status',
    'git diff > /tmp/x.diff',
    'patch --dry-run -i x.diff',
    'git log -p -- src',
  ];
  const failures: string[] = [];
  for (const c of asks) check(c, true, failures);
  for (const c of quiet) check(c, false, failures);
  console.log(`[adversarial] protected-bash patch forms: ${asks.length + quiet.length} commands, ${failures.length} failures`);
  expect(failures).toEqual([]);
});

it('[adversarial] a writer given a name known only at run time asks; reading or printing one does not', () => {
  const asks = [
    'cp /tmp/x "$D/settings.json"',
    'tee "$(printf x)" < /tmp/x',
    'echo x > "$F"',
    'printf x >> `echo f`',
    'ln -f /tmp/x $T',
    'sed -i s/a/b/ "$1"',
    'bash -c \'cp /tmp/x "$0"\' y',
    'bash -c "$CMD"',
    'mv /tmp/x ${DIR}/y',
    'find . -exec cp /tmp/x {} \\;',
    'find . -type f -delete',
    'find . -type f | xargs sed -i s/a/b/',
    'find . -type f -exec sh -c \'echo > "$1"\' _ {} \\;',
  ];
  const quiet = [
    'echo "$HOME"',
    'cat "$F"',
    'echo "$X" > out.txt',
    'ls $DIR',
    'cp src/index.ts /tmp/y',
    'find src -exec grep -l x {} +',
    'find . -name "*.ts" -exec grep x {} +',
    'find . -type f -exec grep -l TODO {} +',
    'find . -type f | xargs grep -n x',
    'find . -type f -exec wc -l {} \\;',
  ];
  const failures: string[] = [];
  for (const c of asks) check(c, true, failures);
  for (const c of quiet) check(c, false, failures);
  console.log(`[adversarial] protected-bash run-time names: ${asks.length + quiet.length} commands, ${failures.length} failures`);
  expect(failures).toEqual([]);
});
