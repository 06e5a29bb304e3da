import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { splitShellCommand } from '../hooks/config/shellCommand';
import { protectedPathReason } from './protectedWrites';

/**
 * Self-protection for the Bash tool: a command that names a file holding the agent's hooks,
 * rules or MCP servers, or a script a hook runs, asks a person whatever the mode, allow rules
 * or a PreToolUse hook's allow say (a deny rule still denies). The shell is how an agent — or
 * a worm riding one — would make itself permanent (`echo … >> .claude/settings.json`), so every
 * word is checked as written, after quote removal and where it really lands (symlinks).
 *
 * Over-matches on purpose: reading such a file asks too, and so does a command too long to
 * check. What it cannot see: a name assembled at run time (variables, command output, escapes
 * decoded by `printf`); docs/security.md lists it.
 */

/** Words checked per command; a longer command asks (fail closed). */
const MAX_WORDS = 2_000;
/** Segment names worth a glob test: a pattern like `.cl*` may name one of them. */
const GLOB_TARGETS = ['.claude', '.mcp.json', '.claude.json', 'settings.json', 'settings.local.json', '.vscode', 'hooks', 'agents', 'skills', 'SKILL.md'];
const GLOB_CHARS = /[*?[]/;
/** Operators and quoting that separate or wrap words: cut the raw text there too, so redirection targets and heredoc bodies are seen. */
const ROUGH_SPLIT = /[\s;&|()<>`{},=:]+|\$\(/;

/**
 * Why running `command` must ask because it names protected configuration, or undefined.
 * `hookScripts`/`configFiles` as for protectedWriteReason. Never throws.
 */
export function protectedBashReason(command: string, cwd: string, hookScripts: ReadonlySet<string>, configFiles: ReadonlySet<string>): string | undefined {
  const { words, cdTargets } = candidateWords(command);
  if (words.size > MAX_WORDS) return `the command has more than ${MAX_WORDS} words, too many to check for the agent's own configuration; it asks`;
  const scriptNames = new Set([...hookScripts, ...configFiles].map(baseName));
  // `cd scripts && rm guard.sh`: a relative name is judged from every folder the command may be in.
  const cwds = [cwd, ...cdTargets.filter((t) => !/[$`*?[]/.test(t)).map((t) => path.resolve(cwd, expandHome(t)))];
  const hookScriptNames = new Set([...hookScripts].map(baseName));
  for (const word of words) {
    if (GLOB_CHARS.test(word)) {
      const globbed = globReason(word, scriptNames);
      if (globbed) return globbed;
      continue;
    }
    // A `cd` into a folder named at run time (`cd "$D"`): a hook script's own file name asks wherever it is.
    if (cdTargets.length > 0 && hookScriptNames.has(baseName(word)))
      return `the command changes folder and names ${word}, the file name of a script a configured hook runs; it asks`;
    for (const dir of cwds) {
      const reason = protectedPathReason(word, dir, hookScripts, configFiles, 'shell');
      if (reason !== undefined) return `the command names ${word}: ${reason}`;
    }
  }
  return undefined;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/**
 * Every word the command could name a file by: the lexer's words (quotes removed) and
 * the raw text cut at operators with quotes and backslashes dropped (`".cla""ude"`, `\.claude`,
 * `>>.claude/settings.json`, `--file=.mcp.json`, heredoc bodies).
 */
function candidateWords(command: string): { words: Set<string>; cdTargets: string[] } {
  const words = new Set<string>();
  const cdTargets: string[] = [];
  const add = (w: string): void => {
    const trimmed = w.trim();
    if (trimmed !== '' && trimmed !== '.' && trimmed !== '..') words.add(trimmed);
  };
  for (const c of splitShellCommand(command).commands) {
    const name = c.words[0] ?? '';
    if (name === 'cd' || name === 'pushd') cdTargets.push(c.words.slice(1).find((w) => !w.startsWith('-')) ?? '~');
    for (const w of c.words) {
      add(w);
      // `--config=.mcp.json`, `FILE=.claude/x`: the value after `=` is a path too.
      const eq = w.indexOf('=');
      if (eq >= 0) add(w.slice(eq + 1));
    }
    for (const body of c.stdin) for (const w of body.split(ROUGH_SPLIT)) add(w);
    if (words.size > MAX_WORDS) return { words, cdTargets };
  }
  for (const piece of command
    .replace(/\\\n/g, '')
    .replace(/["'\\]/g, '')
    .split(ROUGH_SPLIT)) {
    add(piece);
    if (words.size > MAX_WORDS) return { words, cdTargets };
  }
  return { words, cdTargets };
}

/** A glob word (`.cl*`, `.claude/set*.json`) whose segments could name protected configuration or a hook script. */
function globReason(word: string, scriptNames: ReadonlySet<string>): string | undefined {
  const targets = [...GLOB_TARGETS, ...scriptNames];
  for (const segment of word.split('/')) {
    if (!GLOB_CHARS.test(segment)) {
      if (segment === '.claude' || segment === '.mcp.json' || segment === '.claude.json' || scriptNames.has(segment))
        return `the command names ${word}, which may be the agent's own configuration; it asks`;
      continue;
    }
    const isMatch = picomatch(segment, { dot: true });
    const hit = targets.find((t) => isMatch(t));
    if (hit !== undefined && hit !== 'hooks' && hit !== 'agents' && hit !== 'skills') return `the command names ${word}, which may match ${hit}; it asks`;
  }
  return undefined;
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}
