import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readBoundedTextFile } from '../../hooks/config/configFileSystem';
import { readAgentFrontmatter } from '../../hooks/config/agentFrontmatter';
import { realpathLenientSync } from '../../hooks/config/rulePaths';
import { thrownMessage } from '../../shared/describeThrown';

/**
 * Memory files as Claude Code loads them at session start: the managed policy's CLAUDE.md, the
 * user's `~/.claude/CLAUDE.md` and `~/.claude/rules/*.md`, then from the outermost folder down
 * to the working directory each `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md`
 * (`AGENTS.md` too, where a folder has no CLAUDE.md: the file other agents read), then the
 * project's `.claude/rules/**\/*.md` without `paths:` — each followed by the files it imports
 * with `@path` (up to 5 hops). Rules with `paths:` are kept aside for when the agent works on a
 * matching file. Every file is bounded; the whole set has a budget.
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
}

/** What one load found. `problems` name the file and what was wrong; the rest still loads. */
export interface MemorySnapshot {
  readonly files: readonly MemoryFile[];
  readonly conditionalRules: readonly ConditionalRule[];
  readonly problems: readonly string[];
}

/** Where to look. */
export interface MemoryLocations {
  readonly cwd: string;
  readonly homeDir: string;
  /** The managed policy folder (next to managed-settings.json); undefined = none. */
  readonly managedDir?: string;
}

/** Claude Code warns above 40k characters per file; Hookwise cuts there. */
export const MAX_MEMORY_FILE_CHARS = 40_000;
/** All memory together, so a workspace cannot fill the model's window with instructions. */
export const MAX_MEMORY_TOTAL_CHARS = 120_000;
const MAX_IMPORT_DEPTH = 5;
const MAX_RULE_FILES = 200;
const TRUNCATED = '\n[… cut: this memory file is over the size budget]';

/** Loads the session-start memory for `loc`. Never throws. */
export async function loadMemory(loc: MemoryLocations): Promise<MemorySnapshot> {
  const loader = new MemoryLoader();
  if (loc.managedDir) await loader.add(path.join(loc.managedDir, 'CLAUDE.md'), 'Managed');
  await loader.add(path.join(loc.homeDir, '.claude', 'CLAUDE.md'), 'User');
  await loader.addRules(path.join(loc.homeDir, '.claude', 'rules'), 'User');
  for (const dir of foldersDownTo(loc.cwd, loc.homeDir)) {
    const rootClaude = await loader.add(path.join(dir, 'CLAUDE.md'), 'Project');
    const dotClaude = await loader.add(path.join(dir, '.claude', 'CLAUDE.md'), 'Project');
    const hadClaude = rootClaude === 1 || dotClaude === 1;
    await loader.add(path.join(dir, 'CLAUDE.local.md'), 'Local');
    if (!hadClaude) await loader.add(path.join(dir, 'AGENTS.md'), 'Project');
    await loader.addRules(path.join(dir, '.claude', 'rules'), 'Project');
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

/**
 * Reads memory files with their imports, each once (by real path), within the per-file and
 * total budgets. lazyMemory.ts keeps one for a session, seeded with what the start loaded.
 */
export class MemoryLoader {
  private readonly files: MemoryFile[] = [];
  private readonly rules: ConditionalRule[] = [];
  private readonly problems: string[] = [];
  private readonly seen: Set<string>;

  constructor(
    seen: Iterable<string> = [],
    private total = 0,
  ) {
    this.seen = new Set(seen);
  }

  /** True when the file (by real path) was loaded already. */
  has(file: string): boolean {
    return this.seen.has(realpathLenientSync(file));
  }

  /** Files and problems added since the last take (the lazy loader reports each once). */
  take(): { files: MemoryFile[]; problems: string[] } {
    return { files: this.files.splice(0), problems: this.problems.splice(0) };
  }

  /** Adds text already read (a `paths:` rule's body) as a lazy load, then its imports. */
  async addText(file: string, memoryType: MemoryType, text: string, why: LazyReason): Promise<void> {
    const real = realpathLenientSync(file);
    if (this.seen.has(real)) return;
    this.seen.add(real);
    this.push(file, memoryType, text, undefined, why);
    await this.addImports(file, text, memoryType, 0);
  }

  snapshot(): MemorySnapshot {
    return { files: this.files, conditionalRules: this.rules, problems: this.problems };
  }

  /** Adds one file and its imports; 1 when it exists (for the AGENTS.md fallback), else 0. */
  async add(file: string, memoryType: MemoryType, parentPath?: string, depth = 0, why?: LazyReason): Promise<0 | 1> {
    const real = realpathLenientSync(file);
    if (this.seen.has(real)) return 1;
    const text = await this.read(file);
    if (text === undefined) return 0;
    this.seen.add(real);
    this.push(file, memoryType, text, parentPath, why);
    await this.addImports(file, text, memoryType, depth);
    return 1;
  }

  /** `.claude/rules/**\/*.md`: without `paths:` loaded now, with them kept for a matching file. */
  async addRules(dir: string, memoryType: MemoryType): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(dir, { recursive: true })).filter((n) => n.endsWith('.md')).sort();
    } catch {
      return;
    }
    for (const name of names.slice(0, MAX_RULE_FILES)) {
      const file = path.join(dir, name);
      const text = await this.read(file);
      if (text === undefined) continue;
      const front = readAgentFrontmatter(text);
      const globs = front?.yaml.ok ? pathsOf(front.yaml.value) : [];
      if (front && !front.yaml.ok) this.problems.push(`${file}: frontmatter is not valid YAML (${front.yaml.message}); the rule loads without paths`);
      if (globs.length > 0) this.rules.push({ path: file, memoryType, globs, content: (front?.body ?? text).trim() });
      else if (!this.seen.has(realpathLenientSync(file))) {
        this.seen.add(realpathLenientSync(file));
        this.push(file, memoryType, front ? front.body : text);
      }
    }
  }

  private push(file: string, memoryType: MemoryType, text: string, parentPath?: string, why?: LazyReason): void {
    const room = Math.max(0, Math.min(MAX_MEMORY_FILE_CHARS, MAX_MEMORY_TOTAL_CHARS - this.total));
    const truncated = text.length > room;
    const content = truncated ? text.slice(0, room) + TRUNCATED : text;
    this.total += Math.min(text.length, room);
    if (truncated) this.problems.push(`${file}: ${text.length} characters; cut to ${room} (memory budget)`);
    this.files.push({
      path: file,
      memoryType,
      loadReason: parentPath ? 'include' : (why?.loadReason ?? 'session_start'),
      ...(parentPath ? { parentPath } : {}),
      ...(why && !parentPath ? { triggerFilePath: why.triggerFilePath, ...(why.globs ? { globs: why.globs } : {}) } : {}),
      content,
      truncated,
    });
  }

  private async addImports(file: string, text: string, memoryType: MemoryType, depth: number): Promise<void> {
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const ref of importsOf(text)) {
      const target = ref.startsWith('~/') ? path.join(os.homedir(), ref.slice(2)) : path.resolve(path.dirname(file), ref);
      await this.add(target, memoryType, file, depth + 1);
    }
  }

  private async read(file: string): Promise<string | undefined> {
    try {
      return await readBoundedTextFile(file);
    } catch (error) {
      // A directory named CLAUDE.md, a FIFO, a huge file: say so and go on.
      this.problems.push(`${file}: ${thrownMessage(error)}`);
      return undefined;
    }
  }
}

/** `paths:` of a rule's frontmatter: a string or a list of glob strings. */
function pathsOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const raw = (value as Record<string, unknown>).paths;
  if (typeof raw === 'string')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return Array.isArray(raw) ? raw.filter((p): p is string => typeof p === 'string' && p.trim() !== '') : [];
}

/**
 * `@path` imports outside code spans and fenced blocks (as Claude Code: `@` at a word start,
 * then a path without spaces; e-mail addresses and `@scope/pkg` mentions in code are not imports).
 */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const outsideSpans = line.replace(/`[^`]*`/g, ' ');
    for (const m of outsideSpans.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]+)/g)) {
      const ref = m[1] as string;
      if (ref.includes('/') || ref.includes('.')) out.push(ref.replace(/[.,;:]+$/, ''));
    }
  }
  return out;
}
