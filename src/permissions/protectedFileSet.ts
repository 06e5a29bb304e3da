import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { protectedWriteReason, type ProtectedReach } from './protectedWrites';

/**
 * The protected set as concrete files on disk: what a hard link or a symlinked folder could
 * alias, and what the Bash backstop (protectedSnapshot.ts) watches. protectedWrites.ts
 * decides by name; this lists the names that exist (or would be policy if created) under a
 * root, so callers can compare inodes and contents, not only spellings.
 */

/** Files listed at most (a repository could ship a huge `.claude` tree to make every call slow). */
export const MAX_PROTECTED_FILES = 256;
const MAX_WALK_DEPTH = 4;
/** Well-known policy files that are policy as soon as they exist: watched even while absent, so creating one is seen. */
const WELL_KNOWN = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.mcp.json',
  '.vscode/settings.json',
  // Other agents' hook files Hookwise runs (protectedWrites.ts FOREIGN_HOOK_FILES).
  '.cursor/hooks.json',
  '.windsurf/hooks.json',
  '.github/copilot/settings.json',
  '.github/copilot/settings.local.json',
  '.codex/hooks.json',
  '.codex/config.toml',
  '.gemini/settings.json',
];
/** Folders of other agents' hook files: every file in them is listed. */
const FOREIGN_HOOK_DIRS = ['.github/hooks', '.clinerules/hooks'];
/**
 * Other agents' user hook files and folders, under the home folder (their formats' `user`
 * locations): a hook created there runs in every workspace without an approval, so these are
 * watched like the project's, absent ones included.
 */
const USER_WELL_KNOWN = ['.cursor/hooks.json', '.codeium/windsurf/hooks.json', '.codex/hooks.json', '.codex/config.toml', '.gemini/settings.json'];
const USER_HOOK_DIRS = ['.copilot/hooks', 'Documents/Cline/Hooks'];
/** Folders whose every file is protected from the file tools (their contents are listed for the inode check). */
const FILE_TOOL_DIRS = ['.vscode', '.idea'];

/** What a listing found. */
export interface ProtectedFileList {
  /** Absolute paths, each real location once (the first spelling found wins). */
  readonly files: readonly string[];
  /** True when the cap cut the list. */
  readonly truncated: boolean;
}

/**
 * Lists the protected files under each of `roots` (the workspace: its `.claude` tree but the
 * content folders, `.mcp.json`, `.vscode/settings.json`, `*.code-workspace`; with reach
 * `fileTools` all of `.vscode` and `.idea` and `.git/config` and `.git/hooks`), plus every hook
 * script and config file given, `~/.claude.json` and other agents' user hook files and folders
 * under `homeDir` (`~/.copilot/hooks/*`, `~/Documents/Cline/Hooks/*`, `~/.cursor/hooks.json`…). `hookScripts`/`configFiles` are the same
 * sets protectedWriteReason takes. Never throws; bounded by {@link MAX_PROTECTED_FILES}.
 */
export function listProtectedFiles(
  roots: readonly string[],
  hookScripts: ReadonlySet<string>,
  configFiles: ReadonlySet<string>,
  reach: ProtectedReach = 'shell',
  homeDir: string = os.homedir(),
): ProtectedFileList {
  const files: string[] = [];
  const seen = new Set<string>();
  let truncated = false;
  const add = (file: string): void => {
    if (files.length >= MAX_PROTECTED_FILES) {
      truncated = true;
      return;
    }
    // By name only: a stat or realpath per file would double the cost of every snapshot. The
    // given sets hold real paths beside named ones; a file listed under two names is watched twice.
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
  };
  for (const file of [...hookScripts, ...configFiles]) add(file);
  add(path.join(homeDir, '.claude.json'));
  for (const rel of USER_WELL_KNOWN) add(path.join(homeDir, rel));
  for (const rel of USER_HOOK_DIRS) for (const name of readNames(path.join(homeDir, rel))) add(path.join(homeDir, rel, name));
  for (const root of new Set(roots)) {
    for (const rel of WELL_KNOWN) add(path.join(root, rel));
    for (const rel of FOREIGN_HOOK_DIRS) for (const name of readNames(path.join(root, rel))) add(path.join(root, rel, name));
    walk(path.join(root, '.claude'), 0, hookScripts, configFiles, reach, add);
    for (const name of readNames(root)) if (name.endsWith('.code-workspace') || name === '.claude.json') add(path.join(root, name));
    if (reach === 'fileTools') {
      for (const dir of FILE_TOOL_DIRS) walk(path.join(root, dir), 1, hookScripts, configFiles, reach, add);
      add(path.join(root, '.git', 'config'));
      for (const name of readNames(path.join(root, '.git', 'hooks'))) add(path.join(root, '.git', 'hooks', name));
    }
  }
  return { files, truncated };
}

/** Files under `dir` that are protected for `reach` (symlinked folders inside are not followed: no loops). */
function walk(
  dir: string,
  depth: number,
  hookScripts: ReadonlySet<string>,
  configFiles: ReadonlySet<string>,
  reach: ProtectedReach,
  add: (file: string) => void,
): void {
  if (depth > MAX_WALK_DEPTH) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.slice(0, MAX_PROTECTED_FILES)) {
    const file = path.join(dir, entry.name);
    // `.claude/commands` is the user's; of `.claude/skills` only each skill's SKILL.md is policy (no need to list the rest).
    if (depth === 0 && path.basename(dir) === '.claude' && entry.isDirectory() && entry.name === 'commands') continue;
    if (depth === 0 && path.basename(dir) === '.claude' && entry.isDirectory() && entry.name === 'skills') {
      for (const skill of readNames(file)) add(path.join(file, skill, 'SKILL.md'));
      continue;
    }
    if (entry.isDirectory()) walk(file, depth + 1, hookScripts, configFiles, reach, add);
    // A content folder's files (`.claude/commands/x.md`) are the user's, not policy.
    else if (protectedWriteReason(file, hookScripts, configFiles, reach) !== undefined) add(file);
  }
}

function readNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).slice(0, MAX_PROTECTED_FILES);
  } catch {
    return [];
  }
}
