import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Options of `walkFiles`. */
export interface WalkOptions {
  /** Directory names not descended into, at any depth (e.g. node_modules, .git). */
  readonly skipDirs: ReadonlySet<string>;
  readonly signal?: AbortSignal;
}

/**
 * Yields the absolute paths of the regular files under `root`, depth first, entries in
 * name order so results are stable. Symbolic links are neither followed nor yielded: a
 * link could lead out of the workspace or into a cycle. Unreadable directories are
 * skipped. Stops quietly when `signal` aborts.
 */
export async function* walkFiles(root: string, options: WalkOptions): AsyncGenerator<string> {
  const stack: string[] = [root];
  while (stack.length > 0) {
    if (options.signal?.aborted) return;
    const dir = stack.pop() as string;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!options.skipDirs.has(entry.name)) subdirs.push(full);
      } else if (entry.isFile()) {
        yield full;
      }
    }
    // Reversed so the stack pops them in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as string);
  }
}
