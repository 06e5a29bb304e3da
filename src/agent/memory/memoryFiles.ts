import path from 'node:path';
import type { MemoryAccess } from './memoryAccess';
import { MemoryLoader } from './memoryLoader';

/**
 * Memory files as Claude Code loads them at session start: the managed policy's CLAUDE.md, the
 * user's `~/.claude/CLAUDE.md` and `~/.claude/rules/*.md`, then from the outermost folder down
 * to the working directory each `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md`
 * (`AGENTS.md` too, where a folder has no CLAUDE.md: the file other agents read), then the
 * project's `.claude/rules/**\/*.md` without `paths:` — each followed by the files it imports
 * with `@path` (up to 5 hops). Rules with `paths:` are kept aside for when the agent works on a
 * matching file. Every file is bounded; the whole set has a budget. With a {@link MemoryAccess},
 * project memory and its imports are read only inside the project, past no Read deny rule,
 * unless a person approved the file (memoryAccess.ts); the model gets a note for each one left out.
 */

/** Claude Code's `memory_type`. */
export type MemoryType = 'Managed' | 'User' | 'Project' | 'Local';

/** Claude Code's `load_reason` for a memory file (except `compact`, which is a reload). */
export type MemoryLoadReason = 'session_start' | 'include' | 'nested_traversal' | 'path_glob_match';

/** Why a lazily loaded file was loaded (lazyMemory.ts); its imports load as `include`. */
export interface LazyReason {
  readonly loadReason: 'nested_traversal' | 'path_glob_match';
  readonly triggerFilePath: string;
  readonly globs?: readonly string[];
}

/** One loaded memory file (InstructionsLoaded's fields come from here). */
export interface MemoryFile {
  readonly path: string;
  readonly memoryType: MemoryType;
  /**
   * `session_start`; `include` for a file another imports (`parentPath`); `nested_traversal` /
   * `path_glob_match` for a CLAUDE.md below the working directory or a `paths:` rule, loaded when
   * the agent worked on `triggerFilePath` (lazyMemory.ts).
   */
  readonly loadReason: MemoryLoadReason;
  readonly parentPath?: string;
  /** The file the agent worked on that made this one load (lazy loads only). */
  readonly triggerFilePath?: string;
  /** The rule's `paths:` globs (`path_glob_match` only). */
  readonly globs?: readonly string[];
  readonly content: string;
  /** True when the file was cut to the per-file or total budget. */
  readonly truncated: boolean;
}

/** A `.claude/rules/*.md` file with `paths:` globs: loaded only when the agent works on a matching file. */
export interface ConditionalRule {
  readonly path: string;
  readonly memoryType: MemoryType;
  readonly globs: readonly string[];
  readonly content: string;
  /** Where its imports may point (memoryAccess.ts); undefined = anywhere (the user's own rules). */
  readonly boundary?: string;
}

/** What one load found. `problems` name the file and what was wrong; the rest still loads. */
export interface MemorySnapshot {
  readonly files: readonly MemoryFile[];
  readonly conditionalRules: readonly ConditionalRule[];
  readonly problems: readonly string[];
  /** For the model: each memory file or import left out, and why (never its content). */
  readonly notes?: readonly string[];
}

/** Where to look. */
export interface MemoryLocations {
  readonly cwd: string;
  readonly homeDir: string;
  /** The managed policy folder (next to managed-settings.json); undefined = none. */
  readonly managedDir?: string;
  /** Which project memory may be read; absent = all of it (nothing is checked). */
  readonly access?: MemoryAccess;
  /** Aborts an approval question still open. */
  readonly signal?: AbortSignal;
}

/** Loads the session-start memory for `loc`. Never throws. */
export async function loadMemory(loc: MemoryLocations): Promise<MemorySnapshot> {
  const loader = new MemoryLoader({ homeDir: loc.homeDir, ...(loc.access ? { access: loc.access } : {}), ...(loc.signal ? { signal: loc.signal } : {}) });
  if (loc.managedDir) await loader.add(path.join(loc.managedDir, 'CLAUDE.md'), 'Managed');
  await loader.add(path.join(loc.homeDir, '.claude', 'CLAUDE.md'), 'User');
  await loader.addRules(path.join(loc.homeDir, '.claude', 'rules'), 'User');
  for (const dir of foldersDownTo(loc.cwd, loc.homeDir)) {
    const at = { boundary: loc.access?.boundaryOf(dir) };
    const rootClaude = await loader.add(path.join(dir, 'CLAUDE.md'), 'Project', at);
    const dotClaude = await loader.add(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', at);
    const hadClaude = rootClaude === 1 || dotClaude === 1;
    await loader.add(path.join(dir, 'CLAUDE.local.md'), 'Local', at);
    if (!hadClaude) await loader.add(path.join(dir, 'AGENTS.md'), 'Project', at);
    await loader.addRules(path.join(dir, '.claude', 'rules'), 'Project', at.boundary);
  }
  return loader.snapshot();
}

/**
 * The folders from the outermost ancestor of `cwd` down to `cwd` itself, not `/` (as Claude Code).
 * The home folder's own CLAUDE.md is the user's, loaded as such, so the walk starts below it.
 */
function foldersDownTo(cwd: string, homeDir: string): string[] {
  const out: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (dir === path.dirname(dir)) break;
    if (dir !== path.resolve(homeDir)) out.push(dir);
    else break;
  }
  return out.reverse();
}
