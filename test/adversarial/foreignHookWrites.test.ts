import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, afterAll, expect, it } from 'vitest';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import { protectedBashReason } from '../../src/permissions/protectedBash';
import { hookScriptPaths, protectedWriteOf } from '../../src/permissions/protectedWrites';

/**
 * Self-protection of other agents' hook files: every project file of every format Hookwise runs
 * (and every script their hooks name) × every write form the `.claude` suites try — Write/Edit
 * under hostile spellings and through symlinks, Bash redirections, tee, cp/mv/ln/sed -i/dd/rm,
 * quotes and backslashes split inside the name, globs, nested shells, eval, heredocs, brace and
 * ANSI-C spellings, find selecting the file by a case-folded name, git apply and patch. Every one
 * must ask, and so must removing or replacing a folder above them; the same forms on the formats'
 * ordinary neighbours must not. Only names are known
 * (no loaded-config file list): a file that does not exist yet is policy as soon as it is created.
 */

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-foreign-writes-')));
const ws = path.join(base, 'ws');
afterAll(() => rmSync(base, { recursive: true, force: true }));

const sh = (name: string): string => `scripts/${name}.sh`;
/** Each format's project files, each with one hook naming its own script. */
const hookFiles: Record<string, string> = {
  '.github/hooks/guard.json': JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: `./${sh('copilot')}` }] } }),
  '.github/copilot/settings.json': JSON.stringify({ hooks: { sessionStart: [{ type: 'command', command: `./${sh('copilot-settings')}` }] } }),
  '.github/copilot/settings.local.json': JSON.stringify({ hooks: { sessionEnd: [{ type: 'command', command: `./${sh('copilot-local')}` }] } }),
  '.cursor/hooks.json': JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: `./${sh('cursor')}` }] } }),
  '.windsurf/hooks.json': JSON.stringify({ hooks: { pre_run_command: [{ command: `bash ${sh('windsurf')}` }] } }),
  '.codex/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `./${sh('codex')}` }] }] } }),
  '.codex/config.toml': `[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "./${sh('codex-toml')}"\n`,
  '.gemini/settings.json': JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: `./${sh('gemini')}` }] }] } }),
  '.clinerules/hooks/PreToolUse': '#!/bin/sh\nexit 0\n',
};
const scriptNames = ['copilot', 'copilot-settings', 'copilot-local', 'cursor', 'windsurf', 'codex', 'codex-toml', 'gemini'];
/** Protected: every hook file, new files in the hook folders, and every script a format hook names. */
const targets = [...Object.keys(hookFiles), '.github/hooks/new.json', '.clinerules/hooks/TaskStart', ...scriptNames.map(sh)];
/** Their neighbours: ordinary files in the same folders. */
const harmless = [
  '.github/workflows/ci.yml',
  '.cursor/rules/style.mdc',
  '.windsurf/rules/tone.md',
  '.gemini/GEMINI.md',
  '.clinerules/style.md',
  sh('build'),
  'README.md',
];

let scripts: ReadonlySet<string> = new Set();
const configs = new Set<string>();

beforeAll(async () => {
  const write = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), text);
  };
  for (const [rel, text] of Object.entries(hookFiles)) write(rel, text);
  chmodSync(path.join(ws, '.clinerules/hooks/PreToolUse'), 0o755);
  for (const name of [...scriptNames, 'build']) write(sh(name), 'exit 0\n');
  for (const rel of harmless) write(rel, 'x\n');
  mkdirSync(path.join(ws, 'src'));
  symlinkSync(ws, path.join(base, 'alias'));
  const config = await loadHookConfig(standardConfigSources({ homeDir: path.join(base, 'home'), folders: [{ root: ws }], managedSettingsFile: null }), {
    projectDirs: [ws],
  });
  scripts = hookScriptPaths(config.hooks);
  // The scripts reach the protected set through the loaded hooks of every format.
  for (const name of scriptNames) expect([...scripts], `the script of ${name}`).toContain(path.join(ws, sh(name)));
});

/** Spellings of a workspace-relative path a file tool may use, with the cwd it is given. */
function fileToolSpellings(rel: string, i: number): { file: string; cwd: string }[] {
  const dir = path.posix.dirname(rel);
  const linkDir = path.join(base, 'links', `d${i}`);
  const linkFile = path.join(base, 'links', `f${i}`);
  mkdirSync(path.join(base, 'links'), { recursive: true });
  mkdirSync(path.join(ws, dir), { recursive: true });
  symlinkSync(path.join(ws, dir), linkDir);
  symlinkSync(path.join(ws, rel), linkFile);
  return [
    { file: rel, cwd: ws },
    { file: path.join(ws, rel), cwd: base },
    { file: `./${rel}`, cwd: ws },
    { file: `src/../${rel}`, cwd: ws },
    { file: `../${rel}`, cwd: path.join(ws, 'src') },
    { file: `${ws}//${rel}`, cwd: base },
    { file: path.join(base, 'alias', rel), cwd: base },
    { file: path.join(linkDir, path.posix.basename(rel)), cwd: base },
    { file: linkFile, cwd: base },
  ];
}

it('[adversarial] Write and Edit of every format hook file and script ask under every spelling; their neighbours do not', () => {
  const failures: string[] = [];
  let cases = 0;
  [...targets, ...harmless].forEach((rel, i) => {
    const expected = targets.includes(rel);
    for (const { file, cwd } of fileToolSpellings(rel, i))
      for (const input of [
        { file_path: file, content: 'x' },
        { file_path: file, old_string: 'a', new_string: 'b' },
      ]) {
        cases++;
        if ((protectedWriteOf(input, cwd, scripts, configs) !== undefined) !== expected)
          failures.push(`${expected ? 'missed' : 'over-asked'}: ${file} (cwd ${cwd})`);
      }
  });
  console.log(`[adversarial] foreign hook files, file tools: ${cases} writes, ${failures.length} failures`);
  expect(failures).toEqual([]);
});

const hex = (ch: string): string => ch.charCodeAt(0).toString(16).padStart(2, '0');
/** Shell spellings of `p` that bash reads back as `p`. */
const spellings: ((p: string) => string)[] = [
  (p) => p,
  (p) => `${p.slice(0, 2)}""${p.slice(2)}`,
  (p) => `${p.slice(0, 1)}'${p.slice(1, 4)}'${p.slice(4)}`,
  (p) => `${p.slice(0, 2)}\\${p.slice(2)}`,
  (p) => `./${p}`,
  (p) => `src/../${p}`,
  (p) => `${p.slice(0, -2)}*`,
  (p) => `${p.slice(0, 2)}{${p[2]},}${p.slice(3)}`,
  (p) => `$'\\x${hex(p[0] as string)}'${p.slice(1)}`,
  (p) => `${p.slice(0, 3)}$'\\u00${hex(p[3] as string)}'${p.slice(4)}`,
];
const quoteSingle = (w: string): string => w.replace(/'/g, `'\\''`);
const quoteDouble = (w: string): string => w.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
/** Ways to write `w` (a spelling) with Bash. */
const verbs: ((w: string, rel: string) => string)[] = [
  (w) => `echo '{}' > ${w}`,
  (w) => `echo x >>${w}`,
  (w) => `printf x | tee -a ${w} >/dev/null`,
  (w) => `cp /tmp/x ${w}`,
  (w) => `mv /tmp/x ${w}`,
  (w) => `ln -sf /tmp/evil ${w}`,
  (w) => `sed -i 's/a/b/' ${w}`,
  (w) => `dd of=${w} if=/dev/null`,
  (w) => `true; rm -f ${w}`,
  (w) => `bash -c 'tee ${quoteSingle(w)} < /tmp/x'`,
  (w) => `sh -c "cp /tmp/x ${quoteDouble(w)}"`,
  (w) => `eval 'echo > ${quoteSingle(w)}'`,
  (w) => `x=$(echo > ${w})`,
  (w) => `bash <<'EOF'\ncp /tmp/x ${w}\nEOF`,
  (_w, rel) => `cd ${path.posix.dirname(rel)} && echo > ${path.posix.basename(rel)}`,
  (w) => `find . -name README.md -exec bash -c 'tee ${quoteSingle(w)} < /tmp/x' \\;`,
];
/** find forms that select `rel` without spelling it. */
const finds: ((rel: string) => string)[] = [
  (rel) => `find . -iname ${path.posix.basename(rel).toUpperCase()} -exec cp /tmp/x {} \\;`,
  (rel) => `find . -ipath './${rel.toUpperCase()}' -delete`,
  (rel) => `find . -name ${path.posix.basename(rel)} | xargs sed -i s/a/b/`,
  (rel) => `bash -c "find . -iname '${path.posix.basename(rel).toUpperCase()}' -ok rm {} +"`,
];

it('[adversarial] every Bash write form × spelling of every format hook file and script asks; of their neighbours it does not', () => {
  const failures: string[] = [];
  let cases = 0;
  const check = (command: string, expected: boolean): void => {
    cases++;
    if ((protectedBashReason(command, ws, scripts, configs) !== undefined) !== expected) failures.push(`${expected ? 'missed' : 'over-asked'}: ${command}`);
  };
  [...targets, ...harmless].forEach((rel, j) => {
    const expected = targets.includes(rel);
    // Every file meets every verb and every spelling; each verb takes half the spellings per file
    // (alternating from file to file), so the run stays short on a loaded machine.
    verbs.forEach((verb, v) =>
      spellings.forEach((spell, k) => {
        if (k === 0 || (k + v + j) % 2 === 0) check(verb(spell(rel), rel), expected);
      }),
    );
    // A name in a hook folder that no file has yet (new.json, TaskStart) cannot be found by find.
    if (!rel.endsWith('new.json') && !rel.endsWith('TaskStart')) for (const find of finds) check(find(rel), expected);
  });
  // The hook folders themselves: removing or replacing one removes every hook in it.
  for (const dir of ['.github/hooks', '.clinerules/hooks'])
    for (const command of [`rm -rf ${dir}`, `mv ${dir} /tmp/x`, `rm -rf ./${dir}/`, `ln -sfn /tmp/evil ${dir}`]) check(command, true);
  // The folders above them, while they hold those hooks: removing, moving or replacing one takes the hooks along.
  for (const dir of ['.github', '.github/copilot', '.cursor', '.windsurf', '.codex', '.gemini', '.clinerules'])
    for (const command of [
      `rm -rf ${dir}`,
      `mv ${dir} /tmp/x`,
      `rm -rf ./${dir}/`,
      `rm -rf ${dir.slice(0, -2)}*`,
      `rm -rf "${dir.slice(0, 2)}""${dir.slice(2)}"`,
      `bash -c 'rm -rf ${dir}'`,
      `cd ${path.posix.dirname(dir)} && rm -rf ${path.posix.basename(dir)}`,
      `find . -maxdepth 2 -path ./${dir} -exec rm -rf {} +`,
      `ln -sfn /tmp/evil ${dir}`,
    ])
      check(command, true);
  for (const patch of ['git apply x.diff', 'git -C . apply -p1 x.diff', 'patch -p1 < x.diff', "find . -name '*.diff' -exec git apply {} \\;"])
    check(patch, true);
  console.log(`[adversarial] foreign hook files, Bash: ${cases} commands, ${failures.length} failures`);
  expect(failures).toEqual([]);
}, 60_000);
