import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { thrownMessage } from '../../shared/describeThrown';
import { resolveCommandTargets } from './commandTargets';

/**
 * Script pinning for project-hook approval (docs/security.md): approving a command like
 * `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh` must also approve what check.sh says, so
 * the content of every workspace file the command names is part of the approval key. Runs
 * when configuration is (re)loaded, never per hook event.
 */

/** One workspace file a command names, as pinned at load time. */
export interface ScriptPin {
  /** Path relative to the project dir, `/`-separated (display and diff key). */
  readonly path: string;
  /**
   * `sha256:<hex>` of the content; `missing` when absent (creating it later asks again);
   * `notFile` for a directory or device; `large:<size>:<mtimeMs>:<sha256 of the first MAX_SCRIPT_BYTES>`
   * for a file over the read limit.
   */
  readonly digest: string;
  /** Real path when the named file is a symlink (retargeting it asks again). */
  readonly target?: string;
  /** Absolute path as named, for file watching; not part of the approval key. */
  readonly file: string;
}

/** Bytes hashed per script; a larger file is pinned by size, mtime and its first MiB. */
export const MAX_SCRIPT_BYTES = 1024 * 1024;
/** Scripts pinned per command; more names than this are ignored (commands naming dozens of files are not scripts). */
export const MAX_SCRIPTS_PER_COMMAND = 16;

const SCRIPT_EXTENSIONS = /\.(sh|bash|zsh|fish|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|ps1|lua|jar)$/i;
const PROJECT_DIR_VAR = /\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g;

/**
 * Absolute paths inside `projectDir` that `command` names: words with a `/` (relative or
 * absolute, `$CLAUDE_PROJECT_DIR` expanded) or a script extension, also after `--opt=` /
 * `VAR=`. Quotes are removed; words with other `$`, globs or `~` are skipped (not resolvable
 * statically). Relative words resolve against the project dir, where hooks run.
 */
export function referencedScripts(command: string, projectDir: string): string[] {
  return scriptsInWords(nestedWords(command, 3), projectDir);
}

/**
 * The same for an exec-form hook (`command` + `args`): each argument is one word as written
 * (a space does not split it); one that looks like shell code (`bash -c '…'`) is also read as
 * a command.
 */
export function referencedScriptsInArgs(command: string, args: readonly string[], projectDir: string): string[] {
  const words = [command, ...args].flatMap((w) => (/[;|&()<>`$'"]/.test(w.replace(PROJECT_DIR_VAR, '')) ? [w, ...nestedWords(w, 3)] : [w]));
  return scriptsInWords(words, projectDir);
}

function scriptsInWords(words: readonly string[], projectDir: string): string[] {
  const root = path.resolve(projectDir);
  const found = new Set<string>();
  for (const word of words) {
    for (const candidate of [word, word.includes('=') ? word.slice(word.indexOf('=') + 1) : '']) {
      // Tested before expansion: the project dir itself may contain `$`, `[` or `=`.
      const bare = candidate.replace(PROJECT_DIR_VAR, '');
      if (candidate === '' || candidate.startsWith('-') || candidate.startsWith('~') || /[$*?[\]{}`]/.test(bare) || bare.includes('://')) continue;
      if (!candidate.includes('/') && !SCRIPT_EXTENSIONS.test(candidate)) continue;
      const absolute = path.resolve(
        root,
        candidate.replace(PROJECT_DIR_VAR, () => root),
      );
      const rel = path.relative(root, absolute);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      found.add(absolute);
      if (found.size >= MAX_SCRIPTS_PER_COMMAND) return [...found];
    }
  }
  return [...found];
}

/**
 * Pins every workspace file `command` (with its exec-form `args`) runs under `projectDir`
 * (sorted by path): what it resolves to (commandTargets.ts: `bash guard`, `make hook`,
 * `python -m mod`, `node .`) and every word naming a script. `cwd` is where it runs (default
 * the project dir). Never throws: unreadable = a digest naming why.
 */
export async function pinScripts(command: string, projectDir: string, args?: readonly string[], cwd?: string): Promise<ScriptPin[]> {
  const root = path.resolve(projectDir);
  const named = args === undefined ? referencedScripts(command, root) : referencedScriptsInArgs(command, args, root);
  const files = [...new Set([...(await resolveCommandTargets(command, args, root, cwd ?? root)), ...named])];
  const pins = await Promise.all(files.map((file) => pinFile(file, root)));
  return pins.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function pinFile(file: string, root: string): Promise<ScriptPin> {
  const rel = path.relative(root, file).split(path.sep).join('/');
  let real: string;
  try {
    real = await realpath(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { path: rel, file, digest: code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : `unreadable:${String(code)}` };
  }
  const target = real !== file ? { target: real } : {};
  return { path: rel, file, digest: await digestOf(real), ...target };
}

/** Content digest of a regular file, bounded to MAX_SCRIPT_BYTES read; FIFOs are never opened blocking. */
async function digestOf(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return `unreadable:${String((error as { code?: unknown }).code)}`;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return 'notFile';
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_SCRIPT_BYTES));
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const hash = createHash('sha256').update(buffer.subarray(0, length)).digest('hex');
    return stat.size > MAX_SCRIPT_BYTES ? `large:${stat.size}:${stat.mtimeMs}:${hash}` : `sha256:${hash}`;
  } catch (error) {
    return `unreadable:${thrownMessage(error)}`;
  } finally {
    await handle.close();
  }
}

/**
 * Shell words of `command` and, down to `depth` levels, of words that are themselves commands
 * (`bash -c '"$CLAUDE_PROJECT_DIR"/x.sh'`, `"$(cat x.sh)"`), so quoting cannot hide a script.
 */
function nestedWords(command: string, depth: number): string[] {
  const words = shellWords(command);
  if (depth <= 0) return words;
  return words.flatMap((w) => (/[\s'"$`;|&()<>]/.test(w) ? [w, ...nestedWords(w.replace(/\$\(|`/g, ' '), depth - 1)] : [w]));
}

/**
 * Shell words of `command`, quotes removed: split on blanks and on `;|&()<>` outside quotes.
 * Not a shell parser (shellCommand.ts is the one for rules); it only finds file names.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      const stop = end === -1 ? command.length : end;
      word += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (ch === '"') {
      inWord = true;
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) i++;
        word += command[i];
      }
    } else if (ch === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(ch) || ';|&()<>'.includes(ch)) {
      flush();
    } else {
      word += ch;
      inWord = true;
    }
  }
  flush();
  return words;
}
