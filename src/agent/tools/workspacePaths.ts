import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext } from './tool';

/** The part of the tool context that decides where a path may point. */
export type PathScope = Pick<ToolContext, 'cwd' | 'workspaceRoot' | 'allowOutsideWorkspace'>;

/**
 * A path a tool may use. `absPath` is what the tool opens (lexically normalised, so `..`
 * is already applied and the check below is about exactly this path); `realPath` is where
 * it really lands once symlinks are followed; `outside` says an approval let it through.
 */
export type WorkspacePathResult =
  { readonly ok: true; readonly absPath: string; readonly realPath: string; readonly outside: boolean } | { readonly ok: false; readonly error: string };

/** Symlink hops followed before giving up, like the kernel's ELOOP limit. */
const MAX_LINK_HOPS = 40;

/**
 * Resolves a tool's path argument and checks that it stays inside the workspace.
 * Relative paths resolve against `cwd` (itself relative to the workspace root if
 * relative); `~` is the home directory. The check is made on the REAL path: the existing
 * part is realpath'd and dangling symlinks are followed by hand, so a symlinked directory
 * or file pointing out of the workspace — or a new file inside such a directory — counts
 * as outside. Outside paths pass only when `allowOutsideWorkspace(realPath)` returns true.
 * Never throws; a refusal reads `Path /etc/passwd is outside the workspace /tmp/ws`.
 * (Checking then opening is not atomic: a symlink swapped in between is out of scope.)
 */
export async function resolveWorkspacePath(rawPath: string, scope: PathScope): Promise<WorkspacePathResult> {
  if (rawPath.trim() === '') return { ok: false, error: 'Path is empty.' };
  if (rawPath.includes('\0')) return { ok: false, error: 'Path contains a NUL character.' };
  const absPath = toAbsolute(rawPath, scope);
  const rootReal = await realpathLenient(path.resolve(scope.workspaceRoot));
  const realPath = await realpathLenient(absPath);
  if (isInsideDir(rootReal, realPath)) return { ok: true, absPath, realPath, outside: false };

  const via = realPath !== absPath && isInsideDir(rootReal, absPath) ? ` (it resolves to ${realPath} through a symlink)` : '';
  const base = `Path ${absPath} is outside the workspace ${scope.workspaceRoot}${via}`;
  if (!scope.allowOutsideWorkspace) return { ok: false, error: `${base}.` };
  let approved = false;
  try {
    approved = await scope.allowOutsideWorkspace(realPath);
  } catch {
    approved = false;
  }
  if (!approved) return { ok: false, error: `${base}, and access to it was not approved.` };
  return { ok: true, absPath, realPath, outside: true };
}

/** `rawPath` made absolute against `cwd` (and `cwd` against the workspace root), `~` expanded. */
export function toAbsolute(rawPath: string, scope: Pick<PathScope, 'cwd' | 'workspaceRoot'>): string {
  let p = rawPath;
  if (p === '~' || p.startsWith('~/') || p.startsWith(`~${path.sep}`)) p = path.join(os.homedir(), p.slice(1));
  const cwd = path.resolve(scope.workspaceRoot, scope.cwd);
  return path.resolve(cwd, p);
}

/** True when `target` is `dir` or below it. Both must be absolute and normalised. */
export function isInsideDir(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Where `absPath` really lands: `fs.realpath` when it exists; otherwise the real path of
 * the nearest existing ancestor plus the rest, following dangling symlinks by hand (a
 * symlink to a file that does not exist yet would be created at its target). Never throws.
 */
export async function realpathLenient(absPath: string, hops = 0): Promise<string> {
  try {
    return await fs.realpath(absPath);
  } catch {
    // Missing, dangling, looping or unreadable: resolve component by component below.
  }
  const parent = path.dirname(absPath);
  if (parent === absPath) return absPath;
  const realParent = await realpathLenient(parent, hops);
  const candidate = path.join(realParent, path.basename(absPath));
  let isLink = false;
  try {
    isLink = (await fs.lstat(candidate)).isSymbolicLink();
  } catch {
    return candidate; // does not exist: this is where it would be created
  }
  if (!isLink || hops >= MAX_LINK_HOPS) return candidate;
  try {
    const target = await fs.readlink(candidate);
    return await realpathLenient(path.resolve(realParent, target), hops + 1);
  } catch {
    return candidate;
  }
}
