import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { parseBoundedJson } from '../../shared/boundedJson';
import { isPlainObject } from '../../shared/jsonObject';

/**
 * The files behind runners that name their code indirectly (commandTargets.ts): a Python
 * module, a Node package folder, a Makefile and what it includes or runs, a package.json
 * script. Reads only small files (a Makefile, a package.json), bounded like config files.
 */

/** What commandTargets.ts gives these helpers: where to add files, and how to follow a command line. */
export interface TargetSink {
  readonly root: string;
  full(): boolean;
  add(name: string, cwds: readonly string[]): void;
  addFile(file: string): void;
  dirs(name: string, cwds: readonly string[]): string[];
  expand(word: string): string | undefined;
  line(text: string, cwd: string, depth: number): Promise<void>;
}

/** Largest Makefile or package.json read for what it runs. */
const MAX_RUNNER_FILE = 256 * 1024;
/** Recipe lines of one Makefile followed. */
const MAX_RECIPE_LINES = 64;

async function kind(file: string): Promise<'file' | 'dir' | 'none'> {
  try {
    const s = await stat(file);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'none';
  } catch {
    return 'none';
  }
}

async function readSmall(file: string): Promise<string | undefined> {
  try {
    return await readBoundedTextFile(file, MAX_RUNNER_FILE);
  } catch {
    return undefined;
  }
}

/**
 * `python -m a.b`: Python looks in the folder it runs in first, a package before a module, so
 * every candidate is pinned whether or not it exists (creating `a/b/__main__.py` later must ask).
 */
export async function pythonModuleTargets(sink: TargetSink, module: string, cwds: readonly string[]): Promise<void> {
  if (!/^[A-Za-z_][\w.]*$/.test(module)) return;
  const parts = module.split('.').filter(Boolean);
  const base = parts.join('/');
  for (let i = 1; i < parts.length; i++) sink.add(`${parts.slice(0, i).join('/')}/__init__.py`, cwds);
  for (const name of [`${base}.py`, `${base}/__init__.py`, `${base}/__main__.py`]) sink.add(name, cwds);
}

/** `node x`: a file as named (or with `.js`), a folder's package.json `main` or index.js. */
export async function nodeEntryTargets(sink: TargetSink, entry: string, cwds: readonly string[]): Promise<void> {
  for (const dir of sink.dirs(entry, cwds)) {
    const what = await kind(dir);
    if (what === 'file') sink.addFile(dir);
    else if (what === 'dir') {
      sink.addFile(path.join(dir, 'package.json'));
      const pkg = parseBoundedJson((await readSmall(path.join(dir, 'package.json'))) ?? '');
      const main = pkg.ok && isPlainObject(pkg.value) && typeof pkg.value.main === 'string' ? pkg.value.main : undefined;
      if (main !== undefined) {
        const target = path.resolve(dir, main);
        sink.addFile(target);
        if ((await kind(target)) === 'dir') sink.addFile(path.join(target, 'index.js'));
        else if ((await kind(target)) === 'none' && path.extname(target) === '') sink.addFile(`${target}.js`);
      }
      sink.addFile(path.join(dir, 'index.js'));
    } else {
      sink.addFile(dir);
      sink.addFile(`${dir}.js`);
    }
  }
}

/**
 * `make [-s] [-C dir] [-f file] [target…]`: the Makefile (every name GNU make tries when none
 * is given), the files it includes, and the scripts its recipe lines run.
 */
export async function makeTargets(sink: TargetSink, rest: readonly string[], cwds: readonly string[], depth: number): Promise<void> {
  let dirs = [...cwds];
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    const value = (short: string, long: string[]): string | undefined => {
      if (w === short || long.includes(w)) return rest[++i];
      if (w.startsWith(short) && w.length > short.length && short.length === 2) return w.slice(2);
      const eq = long.find((l) => w.startsWith(`${l}=`));
      return eq !== undefined ? w.slice(eq.length + 1) : undefined;
    };
    const dir = value('-C', ['--directory']);
    if (dir !== undefined) {
      dirs = sink.dirs(dir, dirs);
      continue;
    }
    const file = value('-f', ['--file', '--makefile']);
    if (file !== undefined) files.push(file);
    else if (['-I', '-o', '-W', '--include-dir', '--old-file', '--what-if'].includes(w)) i++;
  }
  const makefiles = files.length > 0 ? files : ['GNUmakefile', 'makefile', 'Makefile'];
  for (const name of makefiles) sink.add(name, dirs);
  for (const dir of dirs)
    for (const name of makefiles) {
      const file = path.resolve(dir, sink.expand(name) ?? name);
      const text = await readSmall(file);
      if (text === undefined) continue;
      let recipes = 0;
      for (const raw of text.split('\n')) {
        if (sink.full()) return;
        const include = /^\s*-?s?include\s+(.+)$/.exec(raw);
        if (include) for (const word of include[1]!.split(/\s+/)) if (word !== '') sink.add(word, [dir]);
        if (raw.startsWith('\t') && recipes++ < MAX_RECIPE_LINES) await sink.line(raw.replace(/^\t[@+-]*/, ''), dir, depth);
      }
    }
}

const PACKAGE_BUILTINS = new Set(
  'install i add remove rm uninstall update up upgrade exec dlx x create init publish pack list ls why outdated link unlink store import rebuild prune fetch audit licenses patch config env setup root bin server deploy help doctor info cache workspace workspaces dedupe ci version whoami login logout'.split(
    ' ',
  ),
);
const SCRIPT_SHORTCUTS = new Set(['test', 't', 'tst', 'start', 'stop', 'restart']);

/**
 * `npm|pnpm|yarn run [-s] name` (and `npm test`, `pnpm name`, `yarn name`): the package.json,
 * the package manager's config file (it can set the script shell), and what the script and its
 * pre/post scripts run, including a `node_modules/.bin` program it names.
 */
export async function packageScriptTargets(sink: TargetSink, manager: string, rest: readonly string[], cwds: readonly string[], depth: number): Promise<void> {
  let dirs = [...cwds];
  let script: string | undefined;
  let sawCommand = false;
  for (let i = 0; i < rest.length && script === undefined; i++) {
    const w = rest[i]!;
    if (w === '--') break;
    const eq = w.indexOf('=');
    const flag = eq > 0 ? w.slice(0, eq) : w;
    if (['--prefix', '-C', '--dir', '--cwd'].includes(flag)) {
      const value = eq > 0 ? w.slice(eq + 1) : rest[++i];
      if (value !== undefined) dirs = sink.dirs(value, dirs);
    } else if (['-w', '--workspace', '--filter', '-F'].includes(w)) i++;
    else if (w.startsWith('-')) continue;
    else if (!sawCommand) {
      sawCommand = true;
      if (w === 'run' || w === 'run-script' || w === 'rum' || w === 'urn') continue;
      if (SCRIPT_SHORTCUTS.has(w)) script = w === 't' || w === 'tst' ? 'test' : w;
      else if (manager !== 'npm' && !PACKAGE_BUILTINS.has(w)) script = w;
      else return;
    } else script = w;
  }
  if (script === undefined) return;
  sink.add('package.json', dirs);
  for (const config of manager === 'yarn' ? ['.yarnrc.yml', '.yarnrc'] : ['.npmrc']) sink.add(config, dirs);
  for (const dir of dirs) {
    const pkg = parseBoundedJson((await readSmall(path.join(dir, 'package.json'))) ?? '');
    const scripts = pkg.ok && isPlainObject(pkg.value) && isPlainObject(pkg.value.scripts) ? pkg.value.scripts : {};
    for (const name of [`pre${script}`, script, `post${script}`]) {
      const body = scripts[name];
      if (typeof body !== 'string' || sink.full()) continue;
      const program = /^\s*([A-Za-z0-9._-]+)/.exec(body)?.[1];
      if (program !== undefined && (await kind(path.join(dir, 'node_modules', '.bin', program))) === 'file')
        sink.addFile(path.join(dir, 'node_modules', '.bin', program));
      await sink.line(body, dir, depth);
    }
  }
}
