import { existsSync, statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import path from 'node:path';

/** Most paths one session watches: `watchPaths` is outside input, so it is bounded. */
export const MAX_WATCHED_PATHS = 64;
/** Changes to one file closer together than this fire once (editors write a file in several steps). */
const SETTLE_MS = 100;

/** What happened to a watched file, in Claude Code's words. */
export type FileChangeKind = 'change' | 'add' | 'unlink';

/**
 * The session's FileChanged watch: the absolute paths SessionStart (and CwdChanged, FileChanged)
 * hooks return in `watchPaths`. A file is watched through its folder, so an editor's
 * write-then-rename is still seen; a folder is watched for its direct entries. Owns its
 * watchers: `close()` releases them all. Costs nothing until a path is added.
 */
export class FileWatch {
  private readonly files = new Map<string, boolean>();
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;
  /** Paths added (files and folders), for the bound. */
  private readonly added = new Set<string>();

  constructor(
    private readonly onChange: (filePath: string, kind: FileChangeKind) => void,
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {}

  /** Starts watching `paths` (absolute only; relative ones are reported and skipped). */
  add(paths: readonly unknown[]): void {
    for (const candidate of paths) {
      if (this.closed) return;
      if (typeof candidate !== 'string' || !path.isAbsolute(candidate)) {
        this.onProblem(`watchPaths entry ${JSON.stringify(candidate)} is not an absolute path; it is not watched`);
        continue;
      }
      const file = path.normalize(candidate);
      if (this.added.has(file)) continue;
      if (this.added.size >= MAX_WATCHED_PATHS) {
        this.onProblem(`more than ${MAX_WATCHED_PATHS} watched paths; ${file} is not watched`);
        continue;
      }
      this.added.add(file);
      if (isDirectory(file)) this.watchDir(file, undefined);
      else {
        this.files.set(file, existsSync(file));
        this.watchDir(path.dirname(file), path.basename(file));
      }
    }
  }

  /** Stops every watcher; later changes are not reported. */
  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    for (const t of this.timers.values()) clearTimeout(t);
    this.watchers.clear();
    this.timers.clear();
  }

  private watchDir(dir: string, only: string | undefined): void {
    const key = only === undefined ? dir : `${dir}${path.sep}`;
    if (this.watchers.has(key)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_type, name) => {
        if (name === null) return;
        const file = path.join(dir, name.toString());
        if (only === undefined || this.files.has(file)) this.settle(file);
      });
    } catch (error) {
      this.onProblem(`cannot watch ${dir}: ${(error as Error).message}`);
      return;
    }
    watcher.on('error', () => {
      watcher.close();
      this.watchers.delete(key);
    });
    this.watchers.set(key, watcher);
  }

  private settle(file: string): void {
    const pending = this.timers.get(file);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      this.timers.delete(file);
      if (this.closed) return;
      const existed = this.files.get(file);
      const exists = existsSync(file);
      if (this.files.has(file)) this.files.set(file, exists);
      const kind: FileChangeKind = !exists ? 'unlink' : existed === false ? 'add' : 'change';
      this.onChange(file, kind);
    }, SETTLE_MS);
    timer.unref?.();
    this.timers.set(file, timer);
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
