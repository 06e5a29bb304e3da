import os from 'node:os';
import path from 'node:path';
import type { HookSource } from '../configFiles/hookSource';
import { foreignHookFileReason } from './foreignHookFiles';
import { realpathLenientSync } from './rulePaths';

/**
 * Files the agent must not change without a person saying so, whatever the mode, allow
 * rules, session grants or a PreToolUse hook's allow say (Claude Code ≥ 2.1.78 does the
 * same for `.git`, `.claude`, `.vscode` and `.idea`): the repository's internals, the editor's
 * and the agent's own configuration — the files that hold the hooks and rules that police
 * it — and every script a configured hook runs. Without this, an agent in
 * `bypassPermissions` (or one a prompt injection steers) could rewrite the policy hook that
 * was meant to stop it. Deny rules still deny; a PermissionRequest hook may still allow.
 */

/** Directories whose contents always ask before a file tool writes there. */
const PROTECTED_DIRS = new Set(['.git', '.claude', '.vscode', '.idea']);
/**
 * `.claude` subfolders Claude Code lets through: user-authored content without hooks.
 * `agents/` is not among them in Hookwise (Claude Code exempts it): agent files carry
 * `hooks:` that gate the agent, so they are policy. A skill's `SKILL.md` is policy too
 * (its frontmatter may carry `hooks:` and `allowed-tools`); the rest of a skill folder is not.
 */
const CLAUDE_CONTENT_DIRS = new Set(['commands', 'skills']);
const NONE: ReadonlySet<string> = new Set();

/**
 * File names that hold hook, MCP or editor configuration wherever they are: `.mcp.json`
 * (MCP servers: code that runs on the machine), `~/.claude.json` (user MCP servers) and VS Code
 * workspace files (their `settings` may carry `hookwise.hooks`).
 */
function protectedFileName(name: string): string | undefined {
  if (name === '.mcp.json') return 'configures MCP servers (programs the agent starts)';
  if (name === '.claude.json') return "holds Claude Code's user configuration and MCP servers";
  if (name.endsWith('.code-workspace')) return 'holds VS Code workspace settings, hooks included';
  return undefined;
}

/**
 * What is protected: `fileTools` (Write/Edit) covers `.git`, `.idea` and all of `.vscode` too;
 * `shell` (a Bash command naming the path) only the agent's own configuration — git writes
 * `.git` on every commit, and reading a `.vscode/tasks.json` is not a policy change.
 */
export type ProtectedReach = 'fileTools' | 'shell';

/**
 * Why writing `absPath` needs a person's yes, or undefined. `hookScripts` and `configFiles`
 * (every file a loaded hook or permission rule came from, e.g. VS Code's user settings.json)
 * are absolute paths, real ones included.
 */
export function protectedWriteReason(
  absPath: string,
  hookScripts: ReadonlySet<string>,
  configFiles: ReadonlySet<string> = NONE,
  reach: ProtectedReach = 'fileTools',
): string | undefined {
  if (hookScripts.has(absPath)) return `${absPath} is a script a configured hook runs; changing it always asks`;
  if (configFiles.has(absPath)) return `${absPath} holds hook or permission configuration; changing it always asks`;
  const parts = absPath.split(path.sep);
  const named = protectedFileName(parts[parts.length - 1] ?? '') ?? foreignHookFileReason(parts, reach);
  if (named) return `${absPath} ${named}; changing it always asks`;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (!PROTECTED_DIRS.has(part)) continue;
    if (reach === 'shell' && !(part === '.claude' || (part === '.vscode' && parts[parts.length - 1] === 'settings.json'))) continue;
    // The shell may name the content folder itself (`cd .claude/commands`); a file tool writes files only.
    const inContent = i + 2 < parts.length || (reach === 'shell' && i + 1 < parts.length);
    if (part === '.claude' && CLAUDE_CONTENT_DIRS.has(parts[i + 1] ?? '') && inContent && !isSkillDefinition(parts, i)) continue;
    return `${part} holds ${part === '.git' ? "the repository's internals" : part === '.claude' ? "the agent's own settings, hooks and agents" : 'editor configuration'}; writing there always asks`;
  }
  return undefined;
}

/** `.claude/skills/<name>/SKILL.md` (`i` is the index of `.claude`). */
function isSkillDefinition(parts: readonly string[], i: number): boolean {
  return parts[i + 1] === 'skills' && parts.length === i + 4 && parts[i + 3] === 'SKILL.md';
}

/**
 * The reason a file tool's call (`file_path` / `notebook_path`) must ask, judged on the path
 * as given and where it really lands (a symlink named `notes` pointing into `.git` asks too).
 */
export function protectedWriteOf(
  input: Readonly<Record<string, unknown>>,
  cwd: string,
  hookScripts: ReadonlySet<string> = NONE,
  configFiles: ReadonlySet<string> = NONE,
): string | undefined {
  const raw = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : undefined;
  if (raw === undefined || raw === '') return undefined;
  return protectedPathReason(raw, cwd, hookScripts, configFiles);
}

/** The reason a path as a tool or a shell word names it (relative to `cwd`, `~` expanded) is protected, judged as given and where it really lands. */
export function protectedPathReason(
  raw: string,
  cwd: string,
  hookScripts: ReadonlySet<string>,
  configFiles: ReadonlySet<string>,
  reach: ProtectedReach = 'fileTools',
): string | undefined {
  const expanded = raw === '~' || raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(1)) : raw;
  const given = path.resolve(cwd, expanded);
  return protectedWriteReason(given, hookScripts, configFiles, reach) ?? protectedWriteReason(realpathLenientSync(given), hookScripts, configFiles, reach);
}

/**
 * Every spelling under which a loaded hook's scripts can be reached: as the command names
 * them, where a symlink named there points, and their real path (a workspace reached
 * through a symlinked folder names `/link/ws/x.sh`, a write to `/real/ws/x.sh` must match too).
 */
export function hookScriptPaths(hooks: readonly { readonly scripts?: readonly { readonly file: string; readonly target?: string }[] }[]): ReadonlySet<string> {
  const paths = new Set<string>();
  for (const hook of hooks) {
    for (const pin of hook.scripts ?? []) {
      paths.add(pin.file);
      if (pin.target) paths.add(pin.target);
      paths.add(realpathLenientSync(pin.file));
    }
  }
  return paths;
}

/**
 * Every file a hook or permission rule was loaded from (a settings file, VS Code's user or
 * workspace settings.json, an agent file), as named and where it really is: the agent
 * changing one would change the policy that gates it.
 */
export function configFilePaths(sources: Iterable<HookSource>, extraFiles: readonly string[] = []): ReadonlySet<string> {
  const paths = new Set<string>();
  const add = (file: string | undefined): void => {
    if (file === undefined || paths.has(file)) return;
    paths.add(file);
    paths.add(realpathLenientSync(file));
  };
  for (const source of sources) add(source.kind === 'code' ? undefined : source.file);
  for (const file of extraFiles) add(file);
  return paths;
}
