import path from 'node:path';
import { realpathLenientSync } from './rulePaths';

/**
 * `find … -exec`/`-delete`/`-fprint` against the agent's configuration: a name pattern such as
 * `-iname SETTINGS.JSON` or an `-ipath` pattern around `.CLAUDE` reaches a protected file without the command
 * ever spelling its name, and a `find .` with no name test acts on every file, protected ones
 * included. protectedBash.ts asks when the expression could select a protected file and then
 * acts on it (or hands the names to `xargs`).
 */

/** Primaries that act on, or write, what find selected. */
const ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);
/** Name tests: the pattern is a glob on the base name or the whole path; `-i…` ignore case. */
const NAME_TESTS = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-lname', '-ilname']);
const REGEX_TESTS = new Set(['-regex', '-iregex']);
/** Operators after which a name test no longer filters every action. */
const ALTERNATIVES = new Set(['-o', '-or', '!', '-not', ',']);
/** Programs that only read the files find hands them: running one on every file is not a write. */
export const READERS = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'cat',
  'head',
  'tail',
  'wc',
  'ls',
  'stat',
  'file',
  'du',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'echo',
  'printf',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'test',
  '[',
  'jq',
  'sort',
  'uniq',
  'diff',
  'cmp',
  'true',
]);
/** Primaries that take one argument (skipped so it is not read as a test). */
const ONE_ARG = new Set([
  '-type',
  '-xtype',
  '-user',
  '-group',
  '-perm',
  '-size',
  '-mtime',
  '-mmin',
  '-newer',
  '-maxdepth',
  '-mindepth',
  '-fstype',
  '-inum',
  '-links',
  '-uid',
  '-gid',
  '-atime',
  '-ctime',
  '-amin',
  '-cmin',
  '-samefile',
  '-printf',
  '-context',
  '-used',
]);

/** What the `find` at `argv[at]` does, for the caller's checks. */
export interface FindUse {
  /** Commands run by `-exec`/`-execdir`/`-ok`/`-okdir` (the caller checks them as commands). */
  readonly execs: readonly string[][];
  /** Why it must ask, or undefined. */
  readonly reason?: string;
}

/**
 * Examines `find` at `argv[at]`. `protectedFiles` are the existing protected files (absolute),
 * `cwds` the folders a relative start path may be resolved from, `piped` true when the command
 * line also runs `xargs` with a program that is not a reader (find's output may feed a writer).
 */
export function examineFind(argv: readonly string[], at: number, protectedFiles: readonly string[], cwds: readonly string[], piped: boolean): FindUse {
  let i = at + 1;
  while (i < argv.length && /^-([HLP]|O\d|D)$/.test(argv[i] as string)) i += argv[i] === '-D' ? 2 : 1;
  const starts: string[] = [];
  while (i < argv.length && !(argv[i] as string).startsWith('-') && argv[i] !== '(' && argv[i] !== '!') starts.push(argv[i++] as string);
  if (starts.length === 0) starts.push('.');
  const execs: string[][] = [];
  const patterns: { test: string; pattern: string }[] = [];
  let acts = false;
  let writes = false;
  let regex = false;
  let alternatives = false;
  while (i < argv.length) {
    const w = argv[i] as string;
    if (ACTIONS.has(w)) {
      acts = true;
      if (w.startsWith('-exec') || w.startsWith('-ok')) {
        let end = i + 1;
        while (end < argv.length && argv[end] !== ';' && !(argv[end] === '+' && argv[end - 1] === '{}')) end++;
        execs.push(argv.slice(i + 1, end).filter((a) => a !== '{}'));
        if (!READERS.has(path.basename(argv[i + 1] ?? ''))) writes = true;
        i = end + 1;
        continue;
      }
      writes = true;
      i += w === '-delete' ? 1 : w === '-fprintf' ? 3 : 2;
      continue;
    }
    if (NAME_TESTS.has(w)) patterns.push({ test: w, pattern: argv[i + 1] ?? '' });
    else if (REGEX_TESTS.has(w)) regex = true;
    else if (ALTERNATIVES.has(w)) alternatives = true;
    i += NAME_TESTS.has(w) || REGEX_TESTS.has(w) || ONE_ARG.has(w) ? 2 : 1;
  }
  if (!acts && !piped) return { execs };
  const what = acts ? 'acts on what it finds' : 'feeds what it finds to xargs';
  if (regex) return { execs, reason: `find with -regex ${what}; the pattern may select the agent's own configuration, so it asks` };
  const candidates = candidatePaths(starts, protectedFiles, cwds);
  for (const { test, pattern } of patterns) {
    if (/\$|`/.test(pattern)) return { execs, reason: `find ${test} ${pattern} ${what}, and the pattern is only known when it runs; it asks` };
    const re = fnmatch(pattern, test.startsWith('-i'));
    const onPath = /path|wholename/.test(test);
    const hit = candidates.find((c) => re.test(onPath ? c.shown : path.basename(c.shown)));
    if (hit) return { execs, reason: `find ${test} ${pattern} selects ${hit.file}, the agent's own configuration, and ${what}; it asks` };
  }
  // Every file, protected ones included, but only read (`-exec grep …`): reading is not what this guards.
  if ((patterns.length === 0 || alternatives) && candidates.length > 0 && (writes || (!acts && piped)))
    return {
      execs,
      reason: `find ${starts.join(' ')} ${what} without a name test that keeps out ${candidates[0]?.file}, the agent's own configuration; it asks`,
    };
  return { execs };
}

/** Each protected file (and the folders above it) as find would print it from one of `starts`. */
function candidatePaths(starts: readonly string[], files: readonly string[], cwds: readonly string[]): { shown: string; file: string }[] {
  const out: { shown: string; file: string }[] = [];
  // Each file's spellings once, not once per start, folder and root.
  const spelled = files.map((file) => ({ file, targets: new Set([file, realpathLenientSync(file)]) }));
  for (const start of starts) {
    for (const cwd of cwds) {
      const abs = path.resolve(cwd, start);
      const roots = new Set([abs, realpathLenientSync(abs)]);
      for (const { file, targets } of spelled) {
        for (const root of roots) {
          for (const target of targets) {
            if (target !== root && !target.startsWith(root.endsWith('/') ? root : `${root}/`)) continue;
            // The file and each folder between it and the start path (`-ipath '*/.CLAUDE'` then `rm -rf`).
            for (let p = target; p.length > root.length; p = path.dirname(p)) out.push({ shown: start.replace(/\/+$/, '') + p.slice(root.length), file });
            if (target === root) out.push({ shown: start, file });
          }
        }
      }
    }
  }
  return out;
}

/** find's glob (fnmatch without FNM_PATHNAME: `*` matches `/` too) as a RegExp. */
function fnmatch(pattern: string, nocase: boolean): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\' && i + 1 < pattern.length) re += escape(pattern[++i] as string);
    else if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += escape(ch);
  }
  try {
    return new RegExp(`^${re}$`, nocase ? 'is' : 's');
  } catch {
    return /.*/s;
  }
}

function escape(ch: string): string {
  return ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
