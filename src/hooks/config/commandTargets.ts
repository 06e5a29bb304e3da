import path from 'node:path';
import { splitShellCommand } from '../../permissions/shellCommand';
import { makeTargets, nodeEntryTargets, packageScriptTargets, pythonModuleTargets, type TargetSink } from './runnerTargets';

/**
 * What a hook command (or an MCP server's command line) will run, resolved statically so its
 * approval can pin it (docs/security.md): the script an interpreter is given (`bash guard`,
 * `python3 -m guardmod`, `node .`), the Makefile of `make hook`, the package.json of
 * `npm run hook` and the scripts those name. A word scan (scriptPins.ts) finds names with a
 * `/` or an extension; this finds the ones without. Uses the rule lexer (shellCommand.ts), so
 * quoting, `;`, `&&`, `$(…)` and `bash -c '…'` cannot hide a script from it.
 */

/** Nested command lines followed (`bash -c`, an npm script, a make recipe). */
const MAX_DEPTH = 3;
/** Files resolved per hook; the first ones (what the command itself runs) are kept. */
export const MAX_RESOLVED_TARGETS = 48;
const PROJECT_DIR_VAR = /\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Absolute paths inside `root` that `command` (shell form) or `[command, ...args]` (exec form)
 * runs or reads as code, in the order found. Relative names resolve against `cwd` (the
 * project dir, where hooks and servers run) and, after a `cd`, against the folder it enters
 * too. Files may not exist (creating one later must ask again). Never throws.
 */
export async function resolveCommandTargets(command: string, args: readonly string[] | undefined, root: string, cwd: string = root): Promise<string[]> {
  const resolver = new TargetResolver(path.resolve(root));
  try {
    if (args === undefined) await resolver.line(command, path.resolve(cwd), 0);
    else await resolver.argv([command, ...args], [path.resolve(cwd)], 0);
  } catch {
    // A resolver bug must not stop the load; what was found so far is still pinned.
  }
  return resolver.found();
}

/** Commands looked at per hook (nested lines included): a Makefile of recipes that re-run make must not stall the load. */
const MAX_STEPS = 256;

class TargetResolver implements TargetSink {
  private readonly files = new Set<string>();
  private steps = 0;

  constructor(readonly root: string) {}

  found(): string[] {
    return [...this.files];
  }

  full(): boolean {
    return this.files.size >= MAX_RESOLVED_TARGETS || this.steps >= MAX_STEPS;
  }

  /** A word as the shell would see it, `$CLAUDE_PROJECT_DIR` filled in; undefined when it depends on anything else. */
  expand(word: string): string | undefined {
    if (/[$`*?[\]{}]/.test(word.replace(PROJECT_DIR_VAR, '')) || word.startsWith('~') || word.includes('://')) return undefined;
    return word.replace(PROJECT_DIR_VAR, () => this.root);
  }

  /** Adds `name` resolved against each of `cwds` when it lands inside the root. */
  add(name: string, cwds: readonly string[]): void {
    const word = this.expand(name);
    if (word === undefined || word === '' || word === '-') return;
    for (const dir of cwds) this.addFile(path.resolve(dir, word));
  }

  /** Adds an absolute path when it lands inside the root. */
  addFile(file: string): void {
    if (this.full()) return;
    const rel = path.relative(this.root, file);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) this.files.add(file);
  }

  /** Folders relative to `cwds` (`make -C dir`, `npm --prefix dir`), kept when resolvable. */
  dirs(name: string, cwds: readonly string[]): string[] {
    const word = this.expand(name);
    return word === undefined ? [] : [...new Set(cwds.map((dir) => path.resolve(dir, word)))];
  }

  /** A shell command line: every simple command in it, with the folders a `cd` enters. */
  async line(text: string, cwd: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH) return;
    const cwds = [cwd];
    for (const c of splitShellCommand(text).commands) {
      if (this.full()) return;
      const all = c.words.filter((w) => w !== '');
      // `X=1 cd dir` still changes folder; `env cd dir` runs a program that cannot.
      const words = all.slice(
        Math.max(
          0,
          all.findIndex((w) => !ASSIGNMENT.test(w)),
        ),
      );
      if (words[0] === 'cd' || words[0] === 'pushd') {
        // A relative name may be judged from before or after the `cd` (a subshell's `cd` does not last).
        const target = words.slice(1).find((w) => !w.startsWith('-'));
        for (const dir of target === undefined ? [] : this.dirs(target, [cwds[cwds.length - 1]!])) if (!cwds.includes(dir)) cwds.push(dir);
        continue;
      }
      await this.argv(words, [...cwds].reverse(), depth);
    }
  }

  /** One command's words (quotes removed): wrappers skipped, then what its program runs. */
  async argv(input: readonly string[], cwds: readonly string[], depth: number): Promise<void> {
    const words = skipWrappers(input);
    const program = words[0];
    if (program === undefined || depth > MAX_DEPTH || this.steps++ >= MAX_STEPS) return;
    const name = path.basename(this.expand(program) ?? program).replace(/\.exe$/i, '');
    const rest = words.slice(1);
    // In a nested line (an npm script, a recipe) nothing else scans for `./guard`.
    if (program.includes('/')) this.add(program, cwds);
    if (name === 'source' || name === '.') {
      if (rest[0] !== undefined) this.add(rest[0], cwds);
    } else if (/^(?:ba|da|z|k|mk|a|fi|y|lk)?sh$/.test(name)) await this.shell(rest, cwds, depth);
    else if (/^(?:python|pypy)(?:\d+(?:\.\d+)*)?$/.test(name)) await this.python(rest, cwds);
    else if (/^(?:node|nodejs|tsx|ts-node|ts-node-esm)$/.test(name)) await this.node(rest, cwds);
    else if (name === 'deno') this.deno(rest, cwds);
    else if (name === 'bun') await this.bun(rest, cwds, depth);
    else if (name === 'ruby' || name === 'perl' || name === 'php' || name === 'lua' || name === 'Rscript') this.scriptArg(name, rest, cwds);
    else if (name === 'pwsh' || name === 'powershell') this.pwsh(rest, cwds);
    else if (name === 'make' || name === 'gmake') await makeTargets(this, rest, cwds, depth + 1);
    else if (name === 'npm' || name === 'pnpm' || name === 'yarn') await packageScriptTargets(this, name, rest, cwds, depth + 1);
    else if (name === 'npx' || name === 'pnpx') {
      // `npx tsx guard.ts`, `npx -y ts-node guard`: the package is an interpreter.
      const at = rest.findIndex((w) => !w.startsWith('-'));
      if (at >= 0) await this.argv(rest.slice(at), cwds, depth);
    }
  }

  /** `bash [opts] script`, `sh -c '…'` (followed), `--rcfile file` (pinned). */
  private async shell(rest: readonly string[], cwds: readonly string[], depth: number): Promise<void> {
    for (let i = 0; i < rest.length; i++) {
      const w = rest[i]!;
      if (w === '--') {
        if (rest[i + 1] !== undefined) this.add(rest[i + 1]!, cwds);
        return;
      }
      if (w === '--rcfile' || w === '--init-file') {
        if (rest[i + 1] !== undefined) this.add(rest[++i]!, cwds);
      } else if (w === '-o' || w === '+o' || w === '-O' || w === '+O') i++;
      else if (/^[-+][A-Za-z]+$/.test(w)) {
        if (w.includes('s')) return; // reads the script from stdin
        if (w.startsWith('-') && w.includes('c')) {
          const code = rest.slice(i + 1).find((x) => !/^[-+]/.test(x));
          for (const dir of cwds) if (code !== undefined) await this.line(code, dir, depth + 1);
          return;
        }
      } else if (!w.startsWith('--')) {
        this.add(w, cwds);
        return;
      }
    }
  }

  /** `python [opts] script`, `python -m module` (the module under the folder it runs in). */
  private async python(rest: readonly string[], cwds: readonly string[]): Promise<void> {
    for (let i = 0; i < rest.length; i++) {
      const w = rest[i]!;
      if (w === '--') {
        if (rest[i + 1] !== undefined) this.add(rest[i + 1]!, cwds);
        return;
      }
      if (w === '-') return;
      if (w === '--check-hash-based-pycs') i++;
      else if (w.startsWith('--')) continue;
      else if (w.startsWith('-')) {
        for (let k = 1; k < w.length; k++) {
          const flag = w[k]!;
          if (flag === 'c') return;
          if (flag === 'm' || flag === 'W' || flag === 'X') {
            const value = k + 1 < w.length ? w.slice(k + 1) : rest[++i];
            if (flag === 'm' && value !== undefined) await pythonModuleTargets(this, value, cwds);
            if (flag === 'm') return;
            break;
          }
        }
      } else {
        this.add(w, cwds);
        return;
      }
    }
  }

  /** `node [opts] entry` (a folder is its package.json `main` or index.js), `--env-file`, `-r ./x`. */
  private async node(rest: readonly string[], cwds: readonly string[]): Promise<void> {
    const valued = new Set([
      '-r',
      '--require',
      '--import',
      '--loader',
      '--experimental-loader',
      '-C',
      '--conditions',
      '--env-file',
      '--env-file-if-exists',
      '--input-type',
      '--title',
    ]);
    for (let i = 0; i < rest.length; i++) {
      const w = rest[i]!;
      const eq = w.indexOf('=');
      const flag = w.startsWith('--') && eq > 0 ? w.slice(0, eq) : w;
      const value = w.startsWith('--') && eq > 0 ? w.slice(eq + 1) : valued.has(w) ? rest[++i] : undefined;
      if (w === '--') {
        if (rest[i + 1] !== undefined) await nodeEntryTargets(this, rest[i + 1]!, cwds);
        return;
      }
      if (['-e', '--eval', '-p', '--print', '-', '-i', '--interactive'].includes(w)) return;
      if (value !== undefined) {
        // `--env-file` can set NODE_OPTIONS; a preload given as a path is code.
        if (flag.startsWith('--env-file') || (['-r', '--require', '--import', '--loader', '--experimental-loader'].includes(flag) && /^\.{0,2}\//.test(value)))
          this.add(value, cwds);
      } else if (!w.startsWith('-')) {
        await nodeEntryTargets(this, w, cwds);
        return;
      }
    }
  }

  /** `deno run [opts] script`, `deno task x` (deno.json), `deno script`. */
  private deno(rest: readonly string[], cwds: readonly string[]): void {
    let i = 0;
    if (rest[0] === 'task') {
      for (const file of ['deno.json', 'deno.jsonc']) this.add(file, cwds);
      return;
    }
    if (rest[0] === 'run' || rest[0] === 'test' || rest[0] === 'serve') i = 1;
    for (; i < rest.length; i++) {
      const w = rest[i]!;
      if (w === '-c' || w === '--config' || w === '--import-map') {
        if (rest[i + 1] !== undefined) this.add(rest[++i]!, cwds);
      } else if (/^--(?:config|import-map|env-file)=/.test(w)) this.add(w.slice(w.indexOf('=') + 1), cwds);
      else if (!w.startsWith('-')) {
        this.add(w, cwds);
        return;
      }
    }
  }

  /** `bun [run] file` runs the file; `bun [run] name` a package.json script. */
  private async bun(rest: readonly string[], cwds: readonly string[], depth: number): Promise<void> {
    const args = rest[0] === 'run' ? rest.slice(1) : rest;
    const target = args.find((w) => !w.startsWith('-'));
    if (target === undefined) return;
    if (target.includes('/') || /\.[cm]?[jt]sx?$/.test(target) || target === '.') await nodeEntryTargets(this, target, cwds);
    else await packageScriptTargets(this, 'npm', ['run', target], cwds, depth + 1);
  }

  /** ruby/perl/php/lua: the first word that is not an option (after the options that take a value). */
  private scriptArg(name: string, rest: readonly string[], cwds: readonly string[]): void {
    const inline = name === 'php' ? ['-r', '-R', '-B', '-E'] : ['-e', '-E'];
    const valued = name === 'ruby' ? ['-r', '-I', '-C', '-E', '-F'] : name === 'php' ? ['-c', '-d', '-z'] : name === 'lua' ? ['-l'] : ['-I', '-M', '-m'];
    for (let i = 0; i < rest.length; i++) {
      const w = rest[i]!;
      if (inline.includes(w)) return;
      if (name === 'php' && w === '-f') {
        if (rest[i + 1] !== undefined) this.add(rest[i + 1]!, cwds);
        return;
      }
      if (w === '--') {
        if (rest[i + 1] !== undefined) this.add(rest[i + 1]!, cwds);
        return;
      }
      if (valued.includes(w)) i++;
      else if (!w.startsWith('-')) {
        this.add(w, cwds);
        return;
      }
    }
  }

  /** `pwsh [-NoProfile …] [-File] script`; `-Command` is not a file. */
  private pwsh(rest: readonly string[], cwds: readonly string[]): void {
    const valued =
      /^-(?:executionpolicy|ep|workingdirectory|wd|configurationname|outputformat|of|inputformat|if|windowstyle|w|settingsfile|custompipename|version|v)$/i;
    for (let i = 0; i < rest.length; i++) {
      const w = rest[i]!;
      if (/^-(?:file|f)$/i.test(w)) {
        if (rest[i + 1] !== undefined) this.add(rest[i + 1]!, cwds);
        return;
      }
      if (/^-(?:command|c|encodedcommand|ec|e)$/i.test(w)) return;
      if (valued.test(w)) i++;
      else if (!w.startsWith('-')) {
        this.add(w, cwds);
        return;
      }
    }
  }
}

/** Drops assignments and programs that run the rest of the line (`env X=1`, `exec`, `nice -n 5`, `timeout 10`). */
function skipWrappers(input: readonly string[]): readonly string[] {
  let words = input;
  for (let guard = 0; guard < 8; guard++) {
    let i = 0;
    while (i < words.length && ASSIGNMENT.test(words[i]!)) i++;
    words = words.slice(i);
    const name = path.basename(words[0] ?? '');
    const valued: Record<string, readonly string[]> = {
      env: ['-u', '--unset', '-C', '--chdir'],
      exec: ['-a'],
      nice: ['-n', '--adjustment'],
      sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-U'],
      timeout: ['-s', '--signal', '-k', '--kill-after'],
      command: [],
      nohup: [],
      time: [],
      stdbuf: ['-i', '-o', '-e'],
    };
    const takes = valued[name];
    if (takes === undefined) return words;
    let j = 1;
    while (j < words.length && (words[j]!.startsWith('-') || (name === 'env' && ASSIGNMENT.test(words[j]!)))) j += takes.includes(words[j]!) ? 2 : 1;
    if (name === 'timeout') j++; // the duration
    words = words.slice(j);
  }
  return words;
}
