import os from 'node:os';
import path from 'node:path';
import type { LoadedHook } from '../hooks/config/loadedHook';
import { realpathLenientSync } from '../hooks/config/rulePaths';

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
 * `hooks:` that gate the agent, so they are policy.
 */
const CLAUDE_CONTENT_DIRS = new Set(['commands', 'skills']);

/** Why writing `absPath` needs a person's yes, or undefined. `hookScripts` are absolute real paths. */
export function protectedWriteReason(absPath: string, hookScripts: ReadonlySet<string>): string | undefined {
  if (hookScripts.has(absPath)) return `${absPath} is a script a configured hook runs; changing it always asks`;
  const parts = absPath.split(path.sep);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (!PROTECTED_DIRS.has(part)) continue;
    if (part === '.claude' && CLAUDE_CONTENT_DIRS.has(parts[i + 1] ?? '') && i + 2 < parts.length) continue;
    return `${part} holds ${part === '.git' ? "the repository's internals" : part === '.claude' ? "the agent's own settings, hooks and agents" : 'editor configuration'}; writing there always asks`;
  }
  return undefined;
}

/**
 * The reason a file tool's call (`file_path` / `notebook_path`) must ask, judged on the path
 * as given and where it really lands (a symlink named `notes` pointing into `.git` asks too).
 */
export function protectedWriteOf(input: Readonly<Record<string, unknown>>, cwd: string, hookScripts: ReadonlySet<string> = new Set()): string | undefined {
  const raw = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : undefined;
  if (raw === undefined || raw === '') return undefined;
  const expanded = raw === '~' || raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(1)) : raw;
  const given = path.resolve(cwd, expanded);
  return protectedWriteReason(given, hookScripts) ?? protectedWriteReason(realpathLenientSync(given), hookScripts);
}

/**
 * Every spelling under which a loaded hook's scripts can be reached: as the command names
 * them, where a symlink named there points, and their real path (a workspace reached
 * through a symlinked folder names `/link/ws/x.sh`, a write to `/real/ws/x.sh` must match too).
 */
export function hookScriptPaths(hooks: readonly LoadedHook[]): ReadonlySet<string> {
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
