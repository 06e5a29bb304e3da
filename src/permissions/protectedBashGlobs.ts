import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { foreignHookAncestorPathReason, foreignHookGlobAgent } from './foreignHookFiles';
import { protectedPathReason } from './protectedWrites';
import { expandGlobWord, GLOB_CHARS } from './shellGlobExpand';

/**
 * Shell words with glob characters (`.cl*`, `.claude/set*.json`, `.cur*`) checked against the
 * agent's own configuration, for protectedBash.ts: by pattern against the protected names, and
 * by what the pattern matches on disk now (a folder above another agent's hook files).
 */

/** Segment names worth a glob test: a pattern like `.cl*` may name one of them. */
const GLOB_TARGETS = ['.claude', '.mcp.json', '.claude.json', 'settings.json', 'settings.local.json', '.vscode', 'hooks', 'agents', 'skills', 'SKILL.md'];

/** A glob word (`.cl*`, `.claude/set*.json`) whose segments could name protected configuration or a hook script. */
export function globReason(word: string, scriptNames: ReadonlySet<string>): string | undefined {
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
  const agent = foreignHookGlobAgent(word.split('/'), (pattern, name) => GLOB_CHARS.test(pattern) && picomatch(pattern, { dot: true })(name));
  if (agent !== undefined) return `the command names ${word}, which may match a file of ${agent} hooks that Hookwise runs; it asks`;
  return undefined;
}

/**
 * A glob word judged by what it expands to from each of `cwds` now (`rm -rf .cur*` while
 * `.cursor/hooks.json` exists; `.git?ub/hooks`): each existing match as if the command named it,
 * a folder above other agents' hook files included unless `ancestors` is false (the word is only
 * a `cd` target). A pattern that matches nothing stays a literal word to bash, already judged by name.
 */
export function expandedGlobReason(
  word: string,
  cwds: readonly string[],
  hookScripts: ReadonlySet<string>,
  configFiles: ReadonlySet<string>,
  ancestors: boolean,
): string | undefined {
  const expanded = word === '~' || word.startsWith('~/') ? path.join(os.homedir(), word.slice(1)) : word;
  for (const cwd of cwds)
    for (const match of expandGlobWord(expanded, cwd)) {
      const reason = protectedPathReason(match, cwd, hookScripts, configFiles, 'shell') ?? (ancestors ? foreignHookAncestorPathReason(match) : undefined);
      if (reason !== undefined) return `the command names ${word}, which matches ${match}: ${reason}`;
    }
  return undefined;
}
