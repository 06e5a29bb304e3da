import fs from 'node:fs';
import path from 'node:path';
import type { ProtectedReach } from './protectedWrites';
import { realpathLenientSync } from './rulePaths';

/**
 * Other agents' hook files Hookwise reads and runs (src/hooks/formats), by the tail of their
 * path: policy as soon as they exist, so creating one asks like editing one. Directories named
 * `anyFile` protect every file in them. Project and user locations share a tail (`.cursor/hooks.json`
 * is both), so the list is by name, wherever the path is.
 */
const FOREIGN_HOOK_FILES: readonly {
  readonly tail: readonly string[];
  readonly anyFile?: true;
  readonly agent: string;
  /** The shortest folder above the file that asks while missing (default 1, the tail's first folder). */
  readonly missingAsksFrom?: number;
}[] = [
  { tail: ['.github', 'hooks'], anyFile: true, agent: 'Copilot' },
  { tail: ['.github', 'copilot', 'settings.json'], agent: 'Copilot' },
  { tail: ['.github', 'copilot', 'settings.local.json'], agent: 'Copilot' },
  { tail: ['.copilot', 'hooks'], anyFile: true, agent: 'Copilot' },
  { tail: ['.cursor', 'hooks.json'], agent: 'Cursor' },
  { tail: ['.windsurf', 'hooks.json'], agent: 'Windsurf' },
  { tail: ['.codeium', 'windsurf', 'hooks.json'], agent: 'Windsurf' },
  { tail: ['.codex', 'hooks.json'], agent: 'Codex' },
  { tail: ['.codex', 'config.toml'], agent: 'Codex' },
  { tail: ['.gemini', 'settings.json'], agent: 'Gemini' },
  { tail: ['.clinerules', 'hooks'], anyFile: true, agent: 'Cline' },
  // `Documents` alone is an everyday word: it asks only while it holds Cline hooks.
  { tail: ['Documents', 'Cline', 'Hooks'], anyFile: true, agent: 'Cline', missingAsksFrom: 2 },
];

function endsWith(parts: readonly string[], tail: readonly string[]): boolean {
  return parts.length >= tail.length && tail.every((segment, i) => parts[parts.length - tail.length + i] === segment);
}

/**
 * Why `parts` (an absolute path split) is another agent's hook file, or undefined. For the shell
 * a hook folder itself counts too (`rm -rf .github/hooks` removes every file in it).
 */
export function foreignHookFileReason(parts: readonly string[], reach: ProtectedReach): string | undefined {
  for (const { tail, anyFile, agent } of FOREIGN_HOOK_FILES) {
    if (anyFile && reach === 'shell' && endsWith(parts, tail)) return `is the folder of ${agent} hooks that Hookwise runs`;
    const at = anyFile ? parts.length - 1 - tail.length : parts.length - tail.length;
    if (at < 0 || (anyFile && parts.length - at <= tail.length)) continue;
    if (tail.every((segment, i) => parts[at + i] === segment)) return `holds ${agent} hooks that Hookwise runs`;
  }
  return undefined;
}

/**
 * Which agent's hook file a shell word with glob patterns (`.cursor/hook*.json`, `.git?ub/hooks/x.json`)
 * may name: its last segments, each equal to or matched by (`matches(pattern, name)`) the
 * segments of one of the files above (any name in a hook folder). Undefined when none.
 */
export function foreignHookGlobAgent(segments: readonly string[], matches: (pattern: string, name: string) => boolean): string | undefined {
  for (const { tail, anyFile, agent } of FOREIGN_HOOK_FILES) {
    const at = segments.length - tail.length - (anyFile ? 1 : 0);
    if (at < 0) continue;
    if (tail.every((segment, i) => segments[at + i] === segment || matches(segments[at + i] as string, segment))) return agent;
  }
  return undefined;
}

/**
 * Why a shell word naming `absPath`, a folder above other agents' hook files (`.cursor`,
 * `.github`, `.github/copilot`, `.codeium/windsurf`, `~/Documents/Cline`…), must ask, or
 * undefined. Removing, moving or replacing such a folder takes the hooks in it along, and
 * moving, copying or linking a folder onto the name while it does not exist can create them.
 * So it asks when a hook file or hook folder of that agent exists under it, or when nothing
 * exists at that name (a dangling symlink counts as nothing); an existing folder without them
 * (`.github` with only workflows, `.cursor` with only rules) does not ask, so `git add .github`
 * or `ls .cursor` stay quiet; `Documents` alone asks only while it holds Cline hooks. The caller
 * skips a word that is only a `cd` target. Judged when the command is checked: a command that first empties
 * such a folder and then fills it is left to the snapshot backstop (protectedSnapshot.ts), which
 * watches the hook files themselves. Never throws.
 */
export function foreignHookAncestorReason(absPath: string): string | undefined {
  const parts = absPath.split(path.sep);
  let kind: 'folder' | 'other' | 'missing' | undefined;
  for (const { tail, agent, missingAsksFrom = 1 } of FOREIGN_HOOK_FILES) {
    // Proper prefixes only: the hook file or folder itself is judged by name (foreignHookFileReason).
    for (let k = tail.length - 1; k >= 1; k--) {
      if (!endsWith(parts, tail.slice(0, k))) continue;
      kind ??= kindOf(absPath);
      if (kind === 'missing' && k >= missingAsksFrom)
        return `does not exist yet, and a folder moved, copied or linked there could bring ${agent} hooks that Hookwise runs (${tail.slice(k - 1).join('/')}); it asks`;
      const inside = path.join(absPath, ...tail.slice(k));
      if (kind === 'folder' && kindOf(inside, true) !== 'missing')
        return `holds ${agent} hooks that Hookwise runs (${inside}); removing, moving or replacing it always asks`;
    }
  }
  return undefined;
}

/**
 * {@link foreignHookAncestorReason} for a shell word's absolute path, judged as given and where it
 * really lands (`rm -rf link/` through a symlink to `.cursor` empties the real folder). Never throws.
 */
export function foreignHookAncestorPathReason(absPath: string): string | undefined {
  for (const at of new Set([absPath, realpathLenientSync(absPath)])) {
    const reason = foreignHookAncestorReason(at);
    if (reason !== undefined) return `${at} ${reason}`;
  }
  return undefined;
}

/** What is at `absPath`, through symlinks unless `own` (then a symlink, dangling or not, is itself something). */
function kindOf(absPath: string, own = false): 'folder' | 'other' | 'missing' {
  try {
    const st = own ? fs.lstatSync(absPath, { throwIfNoEntry: false }) : fs.statSync(absPath, { throwIfNoEntry: false });
    return st === undefined ? 'missing' : st.isDirectory() ? 'folder' : 'other';
  } catch {
    // Unreadable (a loop, no permission): nothing known lives there, but it is not missing either.
    return 'other';
  }
}
