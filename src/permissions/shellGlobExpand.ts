import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/** Paths a glob expands to at most; the rest are not looked at (the caller's name checks still run). */
export const MAX_GLOB_MATCHES = 64;
/** Names read per folder while expanding. */
const MAX_NAMES = 512;
/** Characters that make a shell word (or one of its segments) a glob. */
export const GLOB_CHARS = /[*?[]/;

/**
 * The existing paths a shell word with glob characters (`.cur*`, `.git?ub/hooks`, `~/.cop*`) expands
 * to from `cwd`, as bash would with `dotglob` on (a leading dot matched by `*` too: over-matching
 * only makes the caller look at more). `~` must already be expanded. Bounded by
 * {@link MAX_GLOB_MATCHES}; never throws. Symlinked folders are followed, as bash does.
 */
export function expandGlobWord(word: string, cwd: string): string[] {
  const absolute = path.isAbsolute(word);
  const segments = word.split('/').filter((s) => s !== '' && s !== '.');
  let current = [absolute ? path.parse(word).root : cwd];
  for (const segment of segments) {
    if (segment === '..') {
      current = current.map((p) => path.dirname(p));
      continue;
    }
    if (!GLOB_CHARS.test(segment)) {
      current = current.map((p) => path.join(p, segment));
      continue;
    }
    const isMatch = picomatch(segment, { dot: true });
    const next: string[] = [];
    for (const dir of current) {
      for (const name of readNames(dir)) {
        if (!isMatch(name)) continue;
        next.push(path.join(dir, name));
        if (next.length >= MAX_GLOB_MATCHES) break;
      }
      if (next.length >= MAX_GLOB_MATCHES) break;
    }
    current = next;
    if (current.length === 0) return [];
  }
  return current.filter(exists);
}

function exists(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function readNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).slice(0, MAX_NAMES);
  } catch {
    return [];
  }
}
