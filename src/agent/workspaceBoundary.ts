import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isInsideDir } from './tools/workspacePaths';

/** How the editor's workspace is laid out: its folders, and the `.code-workspace` file that lists them, if any. */
export interface WorkspaceLayout {
  /** The `.code-workspace` file that defines the workspace, when it is a file on disk (not an untitled workspace). */
  readonly workspaceFile?: string | undefined;
  /** The workspace folders in order, absolute. */
  readonly folders: readonly string[];
  /** Where the agent works when no folder is open. */
  readonly homeDir: string;
}

/** Where the agent works, and what a workspace file would add past its own folder. */
export interface WorkspaceBoundary {
  /** The agent's project root: the file tools' boundary, CLAUDE_PROJECT_DIR, the Bash cwd. */
  readonly projectDir: string;
  /** The workspace file, when one defines the workspace. */
  readonly workspaceFile?: string | undefined;
  /** The folders the workspace file lists outside the folder that holds it (as listed, in order). */
  readonly outsideFolders: readonly string[];
  /** True when the person accepted `outsideFolders` for this workspace file (see {@link boundaryApprovalKey}). */
  readonly approved: boolean;
}

/**
 * The agent's root for a layout. A folder the person opened is theirs: its first folder. A
 * `.code-workspace` file is the repository's own: the folders it lists outside the folder that
 * holds it (`..` makes `$HOME` the project; a symlink that leads out counts, by real path) are
 * not the agent's unless the person accepted exactly that list for that file (`isApproved` says
 * yes to its {@link boundaryApprovalKey}). Unaccepted, the root is the first folder inside the file's
 * folder, else that folder itself, so reads of the rest stay outside the workspace.
 */
export function decideWorkspaceBoundary(layout: WorkspaceLayout, isApproved: (key: string) => boolean = () => false): WorkspaceBoundary {
  const first = layout.folders[0];
  if (first === undefined) return { projectDir: layout.homeDir, outsideFolders: [], approved: false };
  if (layout.workspaceFile === undefined) return { projectDir: first, outsideFolders: [], approved: false };
  const home = path.dirname(layout.workspaceFile);
  const homeReal = realpathOr(home);
  const inside = (folder: string): boolean => isInsideDir(homeReal, realpathOr(folder));
  const outsideFolders = layout.folders.filter((f) => !inside(f));
  const base = { workspaceFile: layout.workspaceFile, outsideFolders };
  if (outsideFolders.length === 0) return { ...base, projectDir: first, approved: false };
  const approved = isApproved(boundaryApprovalKey(layout.workspaceFile, outsideFolders));
  if (approved) return { ...base, projectDir: first, approved };
  return { ...base, projectDir: layout.folders.find(inside) ?? home, approved };
}

/** What the person accepts: this workspace file with exactly these outside folders (a changed list asks again). */
export function boundaryApprovalKey(workspaceFile: string, outsideFolders: readonly string[]): string {
  return JSON.stringify([path.resolve(workspaceFile), [...outsideFolders].map((f) => path.resolve(f)).sort()]);
}

/** The real path, or the path as given when it cannot be resolved (missing: nothing to follow). */
function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
