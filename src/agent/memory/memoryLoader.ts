import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { readAgentFrontmatter } from '../../hooks/config/agentFrontmatter';
import { realpathLenientSync } from '../../permissions/rulePaths';
import { thrownMessage } from '../../shared/describeThrown';
import type { MemoryAccess } from './memoryAccess';
import type { ConditionalRule, LazyReason, MemoryFile, MemorySnapshot, MemoryType } from './memoryFiles';

/** Claude Code warns above 40k characters per file; Hookwise cuts there. */
export const MAX_MEMORY_FILE_CHARS = 40_000;
/** All memory together, so a workspace cannot fill the model's window with instructions. */
export const MAX_MEMORY_TOTAL_CHARS = 120_000;
const MAX_IMPORT_DEPTH = 5;
const MAX_RULE_FILES = 200;
const TRUNCATED = '\n[… cut: this memory file is over the size budget]';

/** Where one file sits in a load: who imported it, how deep, why it loads, what binds it. */
export interface MemoryAddOptions {
  readonly parentPath?: string;
  readonly depth?: number;
  readonly why?: LazyReason;
  /** Where its real path must stay (memoryAccess.ts); undefined = anywhere (the user's and the policy's memory). */
  readonly boundary?: string | undefined;
  /** The import as written (`@~/notes.md`), for a file another imports. */
  readonly importRef?: string;
}

/** What a loader starts from. */
export interface MemoryLoaderOptions {
  /** Real paths loaded already (a lazy loader is seeded with the start's). */
  readonly seen?: Iterable<string>;
  /** Characters of the total budget used already. */
  readonly total?: number;
  /** What `@~/` means; default the process's home. */
  readonly homeDir?: string;
  /** Which project memory may be read; absent = all of it. */
  readonly access?: MemoryAccess;
  /** Aborts an approval question still open. */
  readonly signal?: AbortSignal;
}

/**
 * Reads memory files with their imports, each once (by real path), within the per-file and
 * total budgets, each one past its {@link MemoryAccess} check first (a file left out gets a
 * problem for the user and a note for the model, once). lazyMemory.ts keeps one for a
 * session, seeded with what the start loaded.
 */
export class MemoryLoader {
  private readonly files: MemoryFile[] = [];
  private readonly rules: ConditionalRule[] = [];
  private readonly problems: string[] = [];
  private readonly notes: string[] = [];
  private readonly seen: Set<string>;
  /** Real paths the access check left out: reported once. */
  private readonly refused = new Set<string>();
  private total: number;
  private signal: AbortSignal;

  constructor(private readonly o: MemoryLoaderOptions = {}) {
    this.seen = new Set(o.seen ?? []);
    this.total = o.total ?? 0;
    this.signal = o.signal ?? new AbortController().signal;
  }

  /** True when the file (by real path) was loaded already. */
  has(file: string): boolean {
    return this.seen.has(realpathLenientSync(file));
  }

  /** The signal of the loads that follow (a lazy load runs under its tool call's). */
  useSignal(signal: AbortSignal): void {
    this.signal = signal;
  }

  /** Files, problems and notes added since the last take (the lazy loader reports each once). */
  take(): { files: MemoryFile[]; problems: string[]; notes: string[] } {
    return { files: this.files.splice(0), problems: this.problems.splice(0), notes: this.notes.splice(0) };
  }

  /** Adds text already read (a `paths:` rule's body, checked when it was read) as a lazy load, then its imports. */
  async addText(file: string, memoryType: MemoryType, text: string, why: LazyReason, boundary?: string): Promise<void> {
    const real = realpathLenientSync(file);
    if (this.seen.has(real)) return;
    this.seen.add(real);
    this.push(file, memoryType, text, undefined, why);
    await this.addImports(file, text, memoryType, 0, boundary);
  }

  snapshot(): MemorySnapshot {
    return { files: this.files, conditionalRules: this.rules, problems: this.problems, notes: this.notes };
  }

  /** Adds one file and its imports; 1 when it loaded or had loaded (for the AGENTS.md fallback), else 0. */
  async add(file: string, memoryType: MemoryType, at: MemoryAddOptions = {}): Promise<0 | 1> {
    // A missing file is no question for anyone. Most candidates (a CLAUDE.md in every folder up
    // to the root) are missing: one stat that throws nothing, before links are resolved.
    if (missing(file)) return 0;
    const real = realpathLenientSync(file);
    if (this.seen.has(real)) return 1;
    // One left out is reported once.
    if (this.refused.has(real)) return 0;
    if (!(await this.admit(file, real, at))) return 0;
    const text = await this.read(file, real);
    if (text === undefined) return 0;
    this.seen.add(real);
    this.push(file, memoryType, text, at.parentPath, at.why);
    await this.addImports(file, text, memoryType, at.depth ?? 0, at.boundary);
    return 1;
  }

  /** `.claude/rules/**\/*.md`: without `paths:` loaded now, with them kept for a matching file. */
  async addRules(dir: string, memoryType: MemoryType, boundary?: string): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(dir, { recursive: true })).filter((n) => n.endsWith('.md')).sort();
    } catch {
      return;
    }
    for (const name of names.slice(0, MAX_RULE_FILES)) {
      const file = path.join(dir, name);
      const real = realpathLenientSync(file);
      if (this.refused.has(real) || missing(real)) continue;
      if (!this.seen.has(real) && !(await this.admit(file, real, { boundary }))) continue;
      const text = await this.read(file, real);
      if (text === undefined) continue;
      const front = readAgentFrontmatter(text);
      const globs = front?.yaml.ok ? pathsOf(front.yaml.value) : [];
      if (front && !front.yaml.ok) this.problems.push(`${file}: frontmatter is not valid YAML (${front.yaml.message}); the rule loads without paths`);
      if (globs.length > 0)
        this.rules.push({ path: file, memoryType, globs, content: (front?.body ?? text).trim(), ...(boundary !== undefined ? { boundary } : {}) });
      else if (!this.seen.has(real)) {
        this.seen.add(real);
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

  private async addImports(file: string, text: string, memoryType: MemoryType, depth: number, boundary: string | undefined): Promise<void> {
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const ref of importsOf(text)) {
      const target = ref.startsWith('~/') ? path.join(this.o.homeDir ?? os.homedir(), ref.slice(2)) : path.resolve(path.dirname(file), ref);
      await this.add(target, memoryType, { parentPath: file, depth: depth + 1, boundary, importRef: `@${ref}` });
    }
  }

  /** Asks the access check; a file it leaves out gets a problem and a note, once. */
  private async admit(file: string, real: string, at: MemoryAddOptions): Promise<boolean> {
    if (!this.o.access) return true;
    const verdict = await this.o.access.check(
      {
        given: path.resolve(file),
        real,
        boundary: at.boundary,
        ...(at.parentPath ? { importedBy: at.parentPath } : {}),
        ...(at.importRef ? { importRef: at.importRef } : {}),
      },
      this.signal,
    );
    if (verdict.ok) return true;
    this.refused.add(real);
    this.problems.push(verdict.problem);
    this.notes.push(verdict.note);
    return false;
  }

  /** Reads the checked real path (not the link, which could be swapped for another after the check). */
  private async read(file: string, real: string): Promise<string | undefined> {
    try {
      return await readBoundedTextFile(real);
    } catch (error) {
      // A directory named CLAUDE.md, a FIFO, a huge file: say so and go on.
      this.problems.push(`${file}: ${thrownMessage(error)}`);
      return undefined;
    }
  }
}

/** True when `file` is missing (a dangling link, a folder that is not there); an unreadable one is not missing. */
function missing(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) === undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
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
