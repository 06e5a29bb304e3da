import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { realpathLenientSync } from './rulePaths';
import { listProtectedFiles } from './protectedFileSet';
import { protectedWriteReason, type ProtectedReach } from './protectedWrites';

/**
 * Protected files reached under another name: through a symlinked `.claude` (or `.vscode`,
 * `.mcp.json`…) the repository ships — `conf/settings.json` when `.claude -> conf` — or through
 * a hard link (`notes.json` sharing the inode of `.claude/settings.json`). protectedWrites.ts
 * judges the path as written and where it resolves; neither spelling carries the protected
 * name in these cases, so this compares real locations with the protected folders' real
 * locations, and inodes (dev + ino) with the protected files' when a file has more than one link.
 */

/** Names whose symlink would carry protected content under another name. */
const ANCHOR_NAMES = ['.claude', '.vscode', '.git', '.idea', '.mcp.json', '.claude.json'];
const MAX_ANCESTORS = 64;

/** A protected folder or file that is a symlink, and where it really is. */
interface Anchor {
  readonly anchor: string;
  readonly real: string;
}

/**
 * What one check needs, computed once per call: the symlinked protected names at `cwd` and its
 * ancestors, and (lazily, only when a file with several links shows up) the protected files' inodes.
 */
export class ProtectedAliases {
  private readonly anchors: readonly Anchor[];
  private inodes: Map<string, string> | undefined;

  constructor(
    private readonly cwd: string,
    private readonly hookScripts: ReadonlySet<string>,
    private readonly configFiles: ReadonlySet<string>,
    private readonly reach: ProtectedReach,
  ) {
    this.anchors = symlinkedAnchors(cwd);
  }

  /** Why writing `absPath` (as given, not yet resolved) writes a protected file under another name, or undefined. Never throws. */
  reason(absPath: string): string | undefined {
    // Most checks have no symlinked anchor: skip resolving (a missing path's realpath throws, which is slow).
    const real = this.anchors.length > 0 ? realpathLenientSync(absPath) : absPath;
    for (const { anchor, real: target } of this.anchors) {
      if (real !== target && !real.startsWith(target + path.sep)) continue;
      const aliased = anchor + real.slice(target.length);
      const why = protectedWriteReason(aliased, this.hookScripts, this.configFiles, this.reach);
      if (why !== undefined) return `${absPath} is ${aliased} (${anchor} is a symlink to ${target}): ${why}`;
    }
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(absPath, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    // One link: its only name is the real path, judged already. More: another name may be protected.
    if (!st?.isFile() || st.nlink < 2) return undefined;
    const twin = this.inodeIndex().get(`${st.dev}:${st.ino}`);
    return twin === undefined ? undefined : `${absPath} is a hard link to ${twin}, which is protected; changing it always asks`;
  }

  private inodeIndex(): Map<string, string> {
    if (this.inodes) return this.inodes;
    this.inodes = new Map();
    const roots = [this.cwd, ...this.anchors.map((a) => path.dirname(a.anchor))];
    for (const file of listProtectedFiles(roots, this.hookScripts, this.configFiles, this.reach).files) {
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (st?.isFile()) this.inodes.set(`${st.dev}:${st.ino}`, file);
    }
    return this.inodes;
  }
}

/**
 * The reason a file tool's target (`file_path` / `notebook_path`, relative to `cwd`) is a protected
 * file under another name, or undefined. The same sets as protectedWriteOf.
 */
export function protectedAliasOf(
  input: Readonly<Record<string, unknown>>,
  cwd: string,
  hookScripts: ReadonlySet<string> = new Set(),
  configFiles: ReadonlySet<string> = new Set(),
): string | undefined {
  const raw = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : undefined;
  if (raw === undefined || raw === '') return undefined;
  const expanded = raw === '~' || raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(1)) : raw;
  return new ProtectedAliases(cwd, hookScripts, configFiles, 'fileTools').reason(path.resolve(cwd, expanded));
}

/** The protected names at `cwd` and each folder above it that are symlinks. */
function symlinkedAnchors(cwd: string): Anchor[] {
  const anchors: Anchor[] = [];
  let dir = cwd;
  for (let i = 0; i < MAX_ANCESTORS; i++) {
    for (const name of ANCHOR_NAMES) {
      const anchor = path.join(dir, name);
      if (fs.lstatSync(anchor, { throwIfNoEntry: false })?.isSymbolicLink() !== true) continue;
      anchors.push({ anchor, real: realpathLenientSync(anchor) });
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return anchors;
}
