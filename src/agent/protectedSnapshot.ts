import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { HookActivity, HookActivityMark } from './hookActivity';
import { listProtectedFiles } from '../permissions/protectedFileSet';

/**
 * The backstop behind the name checks: the protected set (protectedFileSet.ts) is snapshotted
 * before a tool that can write runs and compared after it, so a Bash command that changed the
 * agent's own configuration by a route no check saw (a patch, a program, a name built at run
 * time) is a policy event, not silence. A snapshot keeps each file's stat, content hash and,
 * for small files, the content itself, so the change can be reverted.
 *
 * Cost: a stat per file per snapshot; a file is read and hashed only when its stat differs
 * from the last snapshot's (or its mtime is too recent to trust, as git's "racy clean").
 */

/** Files larger than this are hashed but not kept: their change is reported, not reverted. */
export const MAX_KEPT_FILE_BYTES = 512 * 1024;
/** Bytes of content kept across all files (the policy files are small; a hostile repository may not be). */
export const MAX_KEPT_TOTAL_BYTES = 8 * 1024 * 1024;
/** An mtime this close to the snapshot may hide a same-size rewrite in the same clock tick: hash again. */
const RACY_MS = 2_000;

/** One protected file as it was. */
export interface FileState {
  readonly path: string;
  readonly exists: boolean;
  /** The symlink's own target when the name is a symlink. */
  readonly linkTarget?: string;
  /** Permission bits (a hook script losing its `x` bit is a change). */
  readonly mode: number;
  readonly size: number;
  /** sha256 of the content (through a symlink), or undefined when absent or unreadable. */
  readonly hash?: string;
  /** The content, when small enough to keep (see MAX_KEPT_FILE_BYTES). */
  readonly content?: Buffer;
}

/** The protected set at one moment, by path. */
export type ProtectedSnapshot = ReadonlyMap<string, FileState>;

/** One protected file that differs between two snapshots. */
export interface ProtectedChange {
  readonly path: string;
  readonly before: FileState;
  readonly after: FileState;
}

/** Where the protected set comes from: read at each snapshot, so a config reload is followed. */
export interface ProtectedSetSource {
  /** The workspace folders whose `.claude`, `.mcp.json`, `.vscode/settings.json` are watched. */
  readonly roots: () => readonly string[];
  readonly hookScripts: () => ReadonlySet<string>;
  readonly configFiles: () => ReadonlySet<string>;
  readonly homeDir?: string;
  /** Hook runs in flight (the runtime's runner): a change while a hook ran may be the hook's own write. */
  readonly hookActivity?: HookActivity;
}

interface Cached {
  readonly key: string;
  readonly state: FileState;
}

/** Snapshots of one session's protected set, with a stat-keyed cache so an unchanged file is never read twice. */
export class ProtectedSnapshots {
  private readonly cache = new Map<string, Cached>();
  private keptBytes = 0;

  constructor(private readonly source: ProtectedSetSource) {}

  /** Where hook activity stands now (undefined without a tracker): give it to {@link hookRanSince}. */
  hookMark(): HookActivityMark | undefined {
    return this.source.hookActivity?.mark();
  }

  /** True when a hook ran at some point since `mark`. */
  hookRanSince(mark: HookActivityMark | undefined): boolean {
    return mark !== undefined && this.source.hookActivity?.overlapped(mark) === true;
  }

  /** The files whose hooks and rules were loaded now (strict even while a hook ran). */
  configFiles(): ReadonlySet<string> {
    return this.source.configFiles();
  }

  /** The protected set now. Never throws. */
  take(extra: Iterable<string> = []): ProtectedSnapshot {
    const s = this.source;
    const listed = listProtectedFiles(s.roots(), s.hookScripts(), s.configFiles(), 'shell', s.homeDir).files;
    const out = new Map<string, FileState>();
    for (const file of new Set([...listed, ...extra])) out.set(file, this.stateOf(file));
    return out;
  }

  /** What changed since `before` (files created, changed, deleted, relinked or re-moded). */
  changes(before: ProtectedSnapshot): ProtectedChange[] {
    const after = this.take(before.keys());
    const out: ProtectedChange[] = [];
    for (const [file, now] of after) {
      const was = before.get(file) ?? { path: file, exists: false, mode: 0, size: 0 };
      if (differs(was, now)) out.push({ path: file, before: was, after: now });
    }
    return out;
  }

  /**
   * Puts `change.path` back as it was before: removes a created file, rewrites the content and
   * mode (recreating a deleted file or a replaced symlink). Returns why it could not, or undefined.
   */
  revert(change: ProtectedChange): string | undefined {
    const { before, after } = change;
    const file = change.path;
    try {
      const now = lstatOrUndefined(file);
      if (!before.exists) {
        if (now?.isDirectory()) return `${file} is now a folder; it was left in place`;
        if (now) fs.unlinkSync(file);
        return undefined;
      }
      if (before.linkTarget !== undefined) {
        if (after.linkTarget !== before.linkTarget) {
          if (now?.isDirectory()) return `${file} is now a folder; it was left in place`;
          if (now) fs.unlinkSync(file);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.symlinkSync(before.linkTarget, file);
        }
        if (before.hash === after.hash || !after.exists) return undefined;
      }
      if (before.content === undefined) return `${file} is larger than ${MAX_KEPT_FILE_BYTES / 1024} KiB, so no copy was kept to restore`;
      // A name that became a symlink or something else is replaced, never written through.
      if (now && before.linkTarget === undefined && !now.isFile()) {
        if (now.isDirectory()) return `${file} is now a folder; it was left in place`;
        fs.unlinkSync(file);
      }
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, before.content);
      if (before.linkTarget === undefined) fs.chmodSync(file, before.mode);
      return undefined;
    } catch (err) {
      return `${file} could not be restored: ${(err as Error).message}`;
    } finally {
      this.forget(file);
    }
  }

  private forget(file: string): void {
    const old = this.cache.get(file);
    if (old?.state.content) this.keptBytes -= old.state.content.length;
    this.cache.delete(file);
  }

  private stateOf(file: string): FileState {
    const link = lstatOrUndefined(file);
    if (!link) {
      this.forget(file);
      return { path: file, exists: false, mode: 0, size: 0 };
    }
    let linkTarget: string | undefined;
    let st: fs.Stats | undefined = link;
    if (link.isSymbolicLink()) {
      try {
        linkTarget = fs.readlinkSync(file);
      } catch {
        linkTarget = '';
      }
      try {
        st = fs.statSync(file, { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
    }
    const key = `${link.ino}:${link.ctimeMs}:${linkTarget ?? ''}|${st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}` : '-'}`;
    const cached = this.cache.get(file);
    const racy = st !== undefined && Date.now() - st.mtimeMs < RACY_MS;
    if (cached && cached.key === key && !racy) return cached.state;
    const state = this.read(file, st, linkTarget);
    this.forget(file);
    if (state.content) this.keptBytes += state.content.length;
    this.cache.set(file, { key, state });
    return state;
  }

  private read(file: string, st: fs.Stats | undefined, linkTarget: string | undefined): FileState {
    const base = {
      path: file,
      exists: true,
      ...(linkTarget !== undefined ? { linkTarget } : {}),
      mode: st ? st.mode & 0o7777 : 0,
      size: st?.size ?? 0,
    };
    if (!st?.isFile()) return base;
    try {
      const content = fs.readFileSync(file);
      const hash = createHash('sha256').update(content).digest('hex');
      const old = this.cache.get(file)?.state.content?.length ?? 0;
      const keep = content.length <= MAX_KEPT_FILE_BYTES && this.keptBytes - old + content.length <= MAX_KEPT_TOTAL_BYTES;
      return { ...base, size: content.length, hash, ...(keep ? { content } : {}) };
    } catch {
      return base;
    }
  }
}

function differs(a: FileState, b: FileState): boolean {
  return a.exists !== b.exists || a.linkTarget !== b.linkTarget || a.hash !== b.hash || a.mode !== b.mode;
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
