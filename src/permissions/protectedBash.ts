import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { splitShellCommand, type SimpleCommand } from './shellCommand';
import { ProtectedAliases } from './protectedAliases';
import { examineFind, READERS } from './protectedBashFind';
import { listProtectedFiles } from './protectedFileSet';
import { foreignHookAncestorPathReason } from './foreignHookFiles';
import { expandedGlobReason, globReason } from './protectedBashGlobs';
import { GLOB_CHARS } from './shellGlobExpand';
import { protectedPathReason } from './protectedWrites';
import { wordValues } from './shellWordValues';

/**
 * Self-protection for the Bash tool: a command that names a file holding the agent's hooks,
 * rules or MCP servers, or a script a hook runs, asks a person whatever the mode, allow rules
 * or a PreToolUse hook's allow say (a deny rule still denies). The shell is how an agent — or
 * a worm riding one — would make itself permanent (`echo … >> .claude/settings.json`), so every
 * word is checked as written, after quote removal and where it really lands (symlinks).
 *
 * Words are also read as bash would expand them (`$'\x2e…'`, `.cl{a,}ude`), and the scripts
 * of `bash -c`, `eval` and a shell fed a heredoc are checked as commands. Beyond names: `git
 * apply`, `git am` and `patch` write whatever file the patch names and ask; `find` with a name
 * test that may select a protected file (or none at all) and an action asks; a command that
 * writes (`cp`, `tee`, `sed -i`, a redirection…) to a name known only at run time asks. A folder
 * above another agent's hook files (`rm -rf .cursor`, `mv evil .github`) asks while it holds
 * them or does not exist yet (foreignHookFiles.ts), unless the command only `cd`s into it.
 *
 * Over-matches on purpose: reading such a file asks too, and so does a command too long to
 * check. What it cannot see: a name assembled by another program (`$(printf …)` fed to a
 * reader, `python -c`); the snapshot backstop (protectedSnapshot.ts) catches what runs anyway.
 */

/** Words checked per command; a longer command asks (fail closed). */
const MAX_WORDS = 2_000;
/** Nested scripts (`bash -c "bash -c …"`) followed; deeper asks. */
const MAX_DEPTH = 4;
/** Operators and quoting that separate or wrap words: cut the raw text there too, so redirection targets and heredoc bodies are seen. */
const ROUGH_SPLIT = /[\s;&|()<>`{},=:]+|\$\(/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** Programs that run the command after their own options (`sudo -u x git apply`). */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'command',
  'builtin',
  'exec',
  'time',
  'xargs',
  'ionice',
  'setsid',
  'chronic',
  'unbuffer',
]);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh']);
/** Commands whose arguments name files they change: an argument known only at run time asks. */
const WRITERS = new Set(['cp', 'mv', 'ln', 'tee', 'dd', 'install', 'rsync', 'truncate', 'rm', 'unlink', 'chmod', 'chown', 'touch', 'shred']);

/** What one command line names and does, nested scripts included. */
interface Scan {
  readonly words: Set<string>;
  readonly cdTargets: string[];
  /** How often each piece of the raw text occurs (a word that occurs only as a `cd` target is where the command goes, not what it changes). */
  readonly pieces: Map<string, number>;
  /** Reasons to ask that are not a name (git apply, find -exec, a run-time target). */
  readonly findings: string[];
  /** Nested scripts, checked after the outer line (bounded by MAX_DEPTH). */
  readonly scripts: { text: string; depth: number }[];
  argvs: { argv: string[]; unresolved: boolean[]; piped: boolean }[];
}

/**
 * Why running `command` must ask because it names or may write protected configuration, or
 * undefined. `hookScripts`/`configFiles` as for protectedWriteReason. Never throws.
 */
export function protectedBashReason(command: string, cwd: string, hookScripts: ReadonlySet<string>, configFiles: ReadonlySet<string>): string | undefined {
  const scan: Scan = { words: new Set(), cdTargets: [], pieces: new Map(), findings: [], scripts: [{ text: command, depth: 0 }], argvs: [] };
  for (let k = 0; k < scan.scripts.length && scan.words.size <= MAX_WORDS; k++) {
    const { text, depth } = scan.scripts[k] as { text: string; depth: number };
    if (depth > MAX_DEPTH) {
      scan.findings.push(`the command nests shells more than ${MAX_DEPTH} deep, too deep to check for the agent's own configuration; it asks`);
      break;
    }
    collect(text, depth, scan);
  }
  const { words, cdTargets } = scan;
  if (words.size > MAX_WORDS) return `the command has more than ${MAX_WORDS} words, too many to check for the agent's own configuration; it asks`;
  const scriptNames = new Set([...hookScripts, ...configFiles].map(baseName));
  // `cd scripts && rm guard.sh`: a relative name is judged from every folder the command may be in.
  const cwds = [cwd, ...cdTargets.filter((t) => !/[$`*?[]/.test(t)).map((t) => path.resolve(cwd, expandHome(t)))];
  const hookScriptNames = new Set([...hookScripts].map(baseName));
  const aliases = new ProtectedAliases(cwd, hookScripts, configFiles, 'shell');
  // `cd .gemini && echo > GEMINI.md` goes into a folder above hook files without changing it.
  const changesFolder = (word: string): boolean => (scan.pieces.get(word) ?? 0) > cdTargets.filter((t) => t === word).length;
  for (const word of words) {
    if (GLOB_CHARS.test(word)) {
      const globbed = globReason(word, scriptNames) ?? expandedGlobReason(word, cwds, hookScripts, configFiles, changesFolder(word));
      if (globbed) return globbed;
      continue;
    }
    // A `cd` into a folder named at run time (`cd "$D"`): a hook script's own file name asks wherever it is.
    if (cdTargets.length > 0 && hookScriptNames.has(baseName(word)))
      return `the command changes folder and names ${word}, the file name of a script a configured hook runs; it asks`;
    for (const dir of cwds) {
      const reason = protectedPathReason(word, dir, hookScripts, configFiles, 'shell');
      if (reason !== undefined) return `the command names ${word}: ${reason}`;
      const abs = path.resolve(dir, expandHome(word));
      const aliased = aliases.reason(abs);
      if (aliased !== undefined) return `the command names ${word}: ${aliased}`;
      const above = changesFolder(word) ? foreignHookAncestorPathReason(abs) : undefined;
      if (above !== undefined) return `the command names ${word}: ${above}`;
    }
  }
  if (scan.findings.length > 0) return scan.findings[0];
  return programReason(scan, cwds, hookScripts, configFiles);
}

/** What the programs run do (git apply, patch, find, writers with run-time names), from their expanded words. */
function programReason(scan: Scan, cwds: readonly string[], hookScripts: ReadonlySet<string>, configFiles: ReadonlySet<string>): string | undefined {
  let existing: string[] | undefined;
  const protectedFiles = (): string[] =>
    (existing ??= listProtectedFiles(cwds, hookScripts, configFiles, 'shell').files.filter((f) => fs.statSync(f, { throwIfNoEntry: false }) !== undefined));
  const queue = scan.argvs.map((a) => ({ ...a }));
  for (let k = 0; k < queue.length && k < 500; k++) {
    const { argv, unresolved, piped } = queue[k] as (typeof queue)[number];
    for (const at of commandHeads(argv)) {
      const name = baseName(argv[at] as string);
      const args = argv.slice(at + 1);
      if (name === 'git') {
        const why = gitReason(args);
        if (why) return why;
      } else if (name === 'patch' && !args.includes('--dry-run')) {
        return "patch writes whatever files the patch names, the agent's own configuration included; it asks";
      } else if (name === 'find') {
        const use = examineFind(argv, at, protectedFiles(), cwds, piped);
        if (use.reason) return use.reason;
        for (const exec of use.execs) queue.push({ argv: exec, unresolved: exec.map(() => false), piped });
      } else if (WRITERS.has(name) || ((name === 'sed' || name === 'perl') && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place')))) {
        const i = unresolved.findIndex((u, j) => u && j > at && !(argv[j] as string).startsWith('-'));
        if (i >= 0) return `${name} changes files and its argument ${argv[i]} is known only when the command runs; it asks`;
      }
    }
  }
  return undefined;
}

/** `git apply` and `git am` (whatever global options or `-c alias.…` come first) write any file the patch names. */
function gitReason(args: readonly string[]): string | undefined {
  let i = 0;
  while (i < args.length) {
    const w = args[i] as string;
    if (w === '-c' && /^alias\./i.test(args[i + 1] ?? '')) return `git ${w} ${args[i + 1]} defines a command alias, which may run anything; it asks`;
    if (['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'].includes(w)) i += 2;
    else if (w.startsWith('-')) i++;
    else break;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === 'apply') {
    const readOnly = rest.some((a) => ['--check', '--stat', '--numstat', '--summary'].includes(a)) && !rest.includes('--apply');
    if (!readOnly) return "git apply writes whatever files the patch names, the agent's own configuration included; it asks";
  }
  if (sub === 'am' && !rest.some((a) => ['--abort', '--quit', '--show-current-patch'].includes(a)))
    return "git am writes whatever files the patches name, the agent's own configuration included; it asks";
  return undefined;
}

/** Indices of the words run as commands: the first after assignments, the command after each wrapper's options, and what find runs with -exec/-ok. */
function commandHeads(argv: readonly string[]): number[] {
  const heads: number[] = [];
  let i = 0;
  while (i < argv.length && ASSIGNMENT.test(argv[i] as string)) i++;
  while (i < argv.length) {
    heads.push(i);
    if (!WRAPPERS.has(baseName(argv[i] as string))) break;
    i++;
    while (i < argv.length && (/^-/.test(argv[i] as string) || ASSIGNMENT.test(argv[i] as string) || /^\d/.test(argv[i] as string))) i++;
  }
  if (heads.some((h) => baseName(argv[h] as string) === 'find'))
    argv.forEach((w, j) => {
      if (FIND_EXEC.has(w) && j + 1 < argv.length) heads.push(j + 1);
    });
  return heads;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/**
 * Every word the command could name a file by: the lexer's words (quotes removed), each word
 * as bash expands it (ANSI-C quotes decoded, braces expanded), redirection targets, and the raw
 * text cut at operators with quotes and backslashes dropped (`".cla""ude"`, `\.claude`,
 * `>>.claude/settings.json`, `--file=.mcp.json`, heredoc bodies). Nested scripts are queued.
 */
function collect(command: string, depth: number, scan: Scan): void {
  const { words, cdTargets } = scan;
  const add = (w: string): void => {
    const trimmed = w.trim();
    if (trimmed !== '' && trimmed !== '.' && trimmed !== '..') words.add(trimmed);
    // `--config=.mcp.json`, `FILE=.claude/x`: the value after `=` is a path too.
    const eq = trimmed.indexOf('=');
    if (eq >= 0 && eq + 1 < trimmed.length) words.add(trimmed.slice(eq + 1));
  };
  const split = splitShellCommand(command);
  // `find … | xargs sed -i`: find's output feeds a writer (`xargs grep` only reads).
  const piped = split.commands.some((c) => {
    const heads = commandHeads(c.words);
    const at = heads.findIndex((h) => baseName(c.words[h] as string) === 'xargs');
    return at >= 0 && !READERS.has(baseName(c.words[heads[at + 1] ?? -1] ?? ''));
  });
  for (const c of split.commands) {
    const name = c.words[0] ?? '';
    if (name === 'cd' || name === 'pushd') cdTargets.push(c.words.slice(1).find((w) => !w.startsWith('-')) ?? '~');
    for (const w of c.words) add(w);
    const { argv, unresolved } = expandedArgv(c);
    for (const w of argv) add(w);
    for (const target of c.writes ?? []) {
      const v = wordValues(target);
      for (const value of v.values) add(value);
      if (v.unresolved) scan.findings.push(`the command writes to ${target}, a name known only when it runs; it asks`);
    }
    scan.argvs.push({ argv, unresolved, piped });
    queueScripts(c, argv, unresolved, depth, scan);
    for (const body of c.stdin) for (const w of body.split(ROUGH_SPLIT)) add(w);
    if (words.size > MAX_WORDS) return;
  }
  for (const piece of command
    .replace(/\\\n/g, '')
    .replace(/["'\\]/g, '')
    .split(ROUGH_SPLIT)) {
    add(piece);
    const trimmed = piece.trim();
    scan.pieces.set(trimmed, (scan.pieces.get(trimmed) ?? 0) + 1);
    if (words.size > MAX_WORDS) return;
  }
}

/** The command's words as bash would pass them (a brace list becomes several words), with which are known only at run time. */
function expandedArgv(c: SimpleCommand): { argv: string[]; unresolved: boolean[] } {
  const argv: string[] = [];
  const unresolved: boolean[] = [];
  (c.rawWords ?? c.words).forEach((raw) => {
    const v = wordValues(raw);
    for (const value of v.values) {
      argv.push(value);
      unresolved.push(v.unresolved);
    }
  });
  return { argv, unresolved };
}

/** `bash -c SCRIPT`, `eval WORDS`, `sh <<EOF`: the script is checked as a command line too. */
function queueScripts(c: SimpleCommand, argv: readonly string[], unresolved: readonly boolean[], depth: number, scan: Scan): void {
  for (const at of commandHeads(argv)) {
    const name = baseName(argv[at] as string);
    if (name === 'eval') scan.scripts.push({ text: argv.slice(at + 1).join(' '), depth: depth + 1 });
    if (!SHELLS.has(name)) continue;
    const flag = argv.findIndex((w, j) => j > at && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w));
    if (flag < 0) {
      // A shell reading its script from stdin (`sh <<EOF`, `bash -s`).
      for (const body of c.stdin) scan.scripts.push({ text: body, depth: depth + 1 });
      continue;
    }
    let body = flag + 1;
    while (body < argv.length && (argv[body] as string).startsWith('-') && argv[body] !== '--') body++;
    if (argv[body] === '--') body++;
    if (body >= argv.length) continue;
    if (unresolved[body]) scan.findings.push(`${name} -c runs ${argv[body]}, a script known only when it runs; it asks`);
    scan.scripts.push({ text: argv[body] as string, depth: depth + 1 });
  }
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}
