import fs from 'node:fs';
import path from 'node:path';

/**
 * The two spellings of a tool's path that permission rules are matched against: `given`
 * (the path as the call wrote it, made absolute) and `real` (where it lands once symlinks
 * are followed, spelled under the project root or home directory when it lies below their
 * real location, so `/tmp/ws/a` and `/private/tmp/ws/a` compare alike).
 */
export interface RuleTargetPaths {
  readonly given: string;
  readonly real: string;
}

/** Symlink hops followed before giving up, like the kernel's ELOOP limit. */
const MAX_LINK_HOPS = 40;

/** Roots paths are re-spelled under (project root, home directory). */
export interface RuleRoots {
  readonly projectRoot: string;
  readonly homeDir?: string;
  /** Directory relative tool paths resolve against; the project root when absent. */
  readonly cwd?: string;
}

/**
 * Resolves a tool's path argument the way the file tools do (`~` is the home directory,
 * relative paths resolve against `cwd`), then follows symlinks. `knownReal` skips the file
 * system when the caller already knows the real path (Grep's walk). Never throws.
 */
export function ruleTargetPaths(rawPath: string, roots: RuleRoots, knownReal?: string): RuleTargetPaths {
  let p = rawPath;
  if (roots.homeDir && (p === '~' || p.startsWith('~/') || p.startsWith(`~${path.sep}`))) p = path.join(roots.homeDir, p.slice(1));
  const given = path.resolve(roots.projectRoot, roots.cwd ?? '.', p);
  const real = respell(knownReal ?? realpathLenientSync(given), roots);
  return { given, real };
}

/** `real` spelled under the project root or home directory when it lies below their real location. */
function respell(real: string, roots: RuleRoots): string {
  for (const root of [roots.projectRoot, roots.homeDir]) {
    if (!root) continue;
    const rootReal = realpathLenientSync(root);
    if (rootReal === root) continue;
    const rel = path.relative(rootReal, real);
    if (rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel))) return path.join(root, rel);
  }
  return real;
}

/**
 * Where `absPath` really lands: `realpath` when it exists; otherwise the real path of the
 * nearest existing ancestor plus the rest, following dangling symlinks by hand (a file
 * about to be created through one lands at its target). Synchronous because rule
 * evaluation is; it costs a few syscalls. Never throws.
 */
export function realpathLenientSync(absPath: string, hops = 0): string {
  try {
    return fs.realpathSync.native(absPath);
  } catch {
    // Missing, dangling, looping or unreadable: resolve component by component below.
  }
  const parent = path.dirname(absPath);
  if (parent === absPath) return absPath;
  const realParent = realpathLenientSync(parent, hops);
  const candidate = path.join(realParent, path.basename(absPath));
  let isLink = false;
  try {
    isLink = fs.lstatSync(candidate).isSymbolicLink();
  } catch {
    return candidate;
  }
  if (!isLink || hops >= MAX_LINK_HOPS) return candidate;
  try {
    return realpathLenientSync(path.resolve(realParent, fs.readlinkSync(candidate)), hops + 1);
  } catch {
    return candidate;
  }
}
