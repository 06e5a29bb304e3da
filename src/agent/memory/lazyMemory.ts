import path from 'node:path';
import picomatch from 'picomatch';
import { realpathLenientSync } from '../../permissions/rulePaths';
import { isInsideDir } from '../tools/workspacePaths';
import type { MemoryAccess } from './memoryAccess';
import { MemoryLoader } from './memoryLoader';
import type { ConditionalRule, MemoryFile, MemorySnapshot } from './memoryFiles';

/**
 * Memory loaded while the session works, as Claude Code does: when the agent reads, edits or
 * writes a file, the CLAUDE.md files of the folders between the working directory and that
 * file (`nested_traversal`) and the `.claude/rules` whose `paths:` globs match it
 * (`path_glob_match`) load, each once per session, with their `@` imports. Only files inside
 * the project count (by real path, so a symlink cannot pull in a folder outside it); the
 * files and their imports pass the same {@link MemoryAccess} check as the start's (a link or an
 * import out of the project asks, or is left out); the session-start budget applies to the whole set.
 */

/** The file tools whose target makes memory load, and the input field naming it. */
const FILE_TOOLS: Readonly<Record<string, string>> = {
  Read: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  Write: 'file_path',
  NotebookEdit: 'notebook_path',
};
/** Folders walked up from a file at most (a path thousands of folders deep costs nothing more). */
const MAX_WALK = 32;

/** The file a tool call works on, when it is a file tool with a string path; else undefined. */
export function fileToolTarget(toolName: string, input: Readonly<Record<string, unknown>>): string | undefined {
  const field = FILE_TOOLS[toolName];
  const value = field ? input[field] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What one touch loaded: the files (in load order), problems naming the file, and notes for the model on what was left out. */
export interface LazyLoadResult {
  readonly files: readonly MemoryFile[];
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

/** One session's lazy memory: owned by the Session, shared by its agents through the RunContext. */
export class LazyMemory {
  private loader: MemoryLoader;
  private rules: readonly { readonly rule: ConditionalRule; readonly base: string; readonly match: (rel: string) => boolean }[] = [];
  private readonly loadedRules = new Set<string>();
  private readonly walked = new Set<string>();
  private readonly loadedFiles: MemoryFile[] = [];
  private readonly realProject: string;
  private readonly realCwd: string;

  constructor(
    private readonly cwd: string,
    private readonly projectDir: string,
    private readonly access?: MemoryAccess,
  ) {
    this.realProject = realpathLenientSync(path.resolve(projectDir));
    this.realCwd = realpathLenientSync(path.resolve(cwd));
    this.loader = this.newLoader([], 0);
  }

  private newLoader(seen: readonly string[], total: number): MemoryLoader {
    return new MemoryLoader({ seen, total, ...(this.access ? { access: this.access } : {}) });
  }

  /** Starts over from what the session start loaded (a new start reads memory again). */
  reset(start: MemorySnapshot | undefined): void {
    const files = start?.files ?? [];
    const used = files.reduce((n, f) => n + f.content.length, 0);
    this.loader = this.newLoader(
      files.map((f) => realpathLenientSync(f.path)),
      used,
    );
    this.rules = (start?.conditionalRules ?? []).map((rule) => ({ rule, base: ruleBase(rule, this.projectDir), match: globMatcher(rule.globs) }));
    this.loadedRules.clear();
    this.walked.clear();
    this.loadedFiles.length = 0;
  }

  /** The files loaded since the start, in load order. */
  get loaded(): readonly MemoryFile[] {
    return this.loadedFiles;
  }

  /** `start` plus what loaded since (the chat's memory line). */
  withLoaded(start: MemorySnapshot | undefined): MemorySnapshot | undefined {
    if (!start || this.loadedFiles.length === 0) return start;
    return { ...start, files: [...start.files, ...this.loadedFiles] };
  }

  /**
   * Loads what working on `file` (absolute, or relative to the session's cwd) brings in; empty
   * when nothing new. `signal` aborts an approval question. Never throws.
   */
  async touch(file: string, signal?: AbortSignal): Promise<LazyLoadResult> {
    const given = path.resolve(this.cwd, file);
    const real = realpathLenientSync(given);
    if (!isInsideDir(this.realProject, real)) return { files: [], problems: [], notes: [] };
    if (signal) this.loader.useSignal(signal);
    const problems: string[] = [];
    for (const dir of this.nestedDirs(real)) {
      // Each folder is looked at once: reading many files of one folder costs no more syscalls.
      if (this.walked.has(dir)) continue;
      this.walked.add(dir);
      const why = { loadReason: 'nested_traversal', triggerFilePath: given } as const;
      // Without an access check (unit tests of loading alone) a link out of the project is still not read.
      const add = async (file: string, type: 'Project' | 'Local'): Promise<0 | 1> => {
        if (this.loader.has(file)) return 1;
        if (this.access || this.insideProject(file)) return this.loader.add(file, type, { why, boundary: this.realProject });
        problems.push(`${file}: a link to a file outside the project; not loaded`);
        return 0;
      };
      const hadClaude = (await add(path.join(dir, 'CLAUDE.md'), 'Project')) + (await add(path.join(dir, '.claude', 'CLAUDE.md'), 'Project'));
      await add(path.join(dir, 'CLAUDE.local.md'), 'Local');
      if (hadClaude === 0) await add(path.join(dir, 'AGENTS.md'), 'Project');
    }
    for (const { rule, base, match } of this.rules) {
      if (this.loadedRules.has(rule.path)) continue;
      const rel = path.relative(base, real).split(path.sep).join('/');
      if (rel.startsWith('../') || rel === '..' || path.isAbsolute(rel) || !match(rel)) continue;
      this.loadedRules.add(rule.path);
      const why = { loadReason: 'path_glob_match', triggerFilePath: given, globs: rule.globs } as const;
      await this.loader.addText(rule.path, rule.memoryType, rule.content, why, rule.boundary);
    }
    const taken = this.loader.take();
    this.loadedFiles.push(...taken.files);
    return { files: taken.files, problems: [...problems, ...taken.problems], notes: taken.notes };
  }

  /** The folders below the cwd down to `real`'s own, outermost first (those at or above the cwd loaded at start). */
  private nestedDirs(real: string): string[] {
    const out: string[] = [];
    for (let dir = path.dirname(real); out.length < MAX_WALK && isInsideDir(this.realProject, dir); dir = path.dirname(dir)) {
      if (isInsideDir(dir, this.realCwd)) break;
      out.push(dir);
    }
    return out.reverse();
  }

  /** Missing, or inside the project by real path: a symlink out of it is not read (a cloned repo must not pull in ~/secrets). */
  private insideProject(file: string): boolean {
    return isInsideDir(this.realProject, realpathLenientSync(file));
  }
}

/** The folder a rule's globs are relative to: the one holding its `.claude/rules`; the project for user rules. */
function ruleBase(rule: ConditionalRule, projectDir: string): string {
  const marker = `${path.sep}.claude${path.sep}rules${path.sep}`;
  const at = rule.path.lastIndexOf(marker);
  return rule.memoryType === 'User' || at < 0 ? realpathLenientSync(projectDir) : realpathLenientSync(rule.path.slice(0, at));
}

/** `paths:` globs as a matcher on a project-relative path; a glob without `/` matches a file name at any depth (gitignore's rule). */
function globMatcher(globs: readonly string[]): (rel: string) => boolean {
  const matchers = globs.map((glob) => {
    const clean = glob.replace(/^\.\//, '');
    return clean.includes('/') ? picomatch(clean, { dot: true }) : picomatch(clean, { dot: true, basename: true });
  });
  return (rel) => matchers.some((m) => m(rel));
}
