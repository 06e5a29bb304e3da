import path from 'node:path';
import type { ConfigSourceInput } from '../../hooks/config/configSources';
import { hookFormatAdapter, registeredHookFormats } from '../../hooks/formats/formatRegistry';

/**
 * The globs, relative to a workspace folder (`project`) or the home directory (`user`), of every
 * file another agent's hooks are read from (formatRegistry.ts): a `file` location as it is, a
 * `directory` location as its hook files (`*.json`, or every name for a format that picks its
 * own, e.g. Cline's executables named after events), and each folder above them, because a deleted
 * folder is reported as that folder alone, not as the files it held. Every registered format is watched, also
 * one `hookwise.hooks.formats` turns off: turning it on is a settings change, which reloads anyway,
 * and a change to a file of a format that is off costs one reload that reads nothing new.
 * No vscode here, so the list is unit-tested.
 */
export function formatWatchGlobs(scope: 'user' | 'project'): string[] {
  const globs: string[] = [];
  for (const adapter of registeredHookFormats())
    for (const location of adapter.locations) {
      if (location.scope !== scope) continue;
      const parts = location.path.split('/');
      const folders = parts.slice(0, location.kind === 'file' ? -1 : undefined).map((_, i) => parts.slice(0, i + 1).join('/'));
      const files = location.kind === 'file' ? location.path : `${location.path}/${adapter.directoryEntry !== undefined ? '*' : '*.json'}`;
      for (const glob of [...folders, files]) if (!globs.includes(glob)) globs.push(glob);
    }
  return globs;
}

/** The globs as one pattern for one watcher: `{a,b,…}` (none of them holds a brace). */
export function formatWatchPattern(scope: 'user' | 'project'): string {
  return `{${formatWatchGlobs(scope).join(',')}}`;
}

/** One folder to watch without recursion, and which names in it (FileWatchSet's target). */
export interface FormatWatchTarget {
  readonly base: string;
  readonly pattern: string;
}

/**
 * The folders that hold the last load's foreign hook files, each watched on its own (folderWatchSet.ts):
 * the recursive pattern above can lose a folder deleted and created again with its subfolders (a
 * checkout). A folder that is not there is watched through its nearest existing parent, for the name
 * that would start it (`.github` in the workspace folder), so its creation reloads too.
 */
export function formatWatchTargets(inputs: readonly ConfigSourceInput[], exists: (dir: string) => boolean): FormatWatchTarget[] {
  const targets = new Map<string, FormatWatchTarget>();
  for (const input of inputs) {
    let target: FormatWatchTarget | undefined;
    if (input.kind === 'formatFile') target = { base: path.dirname(input.file), pattern: path.basename(input.file) };
    else if (input.kind === 'formatDirectory')
      target = { base: input.dir, pattern: hookFormatAdapter(input.format)?.directoryEntry !== undefined ? '*' : '*.json' };
    if (target === undefined) continue;
    if (!exists(target.base)) target = creationTarget(target.base, exists);
    const key = `${target.base}\0${target.pattern}`;
    if (!targets.has(key)) targets.set(key, target);
  }
  return [...targets.values()].sort(byBaseThenPattern);
}

/**
 * A fixed order for watch targets, by UTF-16 code units: the list is compared between loads,
 * not shown. Not `localeCompare`, whose first call in the extension host builds ICU's collator
 * (~13 ms of activation in a profile).
 */
export function byBaseThenPattern(a: FormatWatchTarget, b: FormatWatchTarget): number {
  const [x, y] = a.base === b.base ? [a.pattern, b.pattern] : [a.base, b.base];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The nearest existing parent of a missing `dir`, watched for the name of the child on the way to it. */
export function creationTarget(dir: string, exists: (dir: string) => boolean): FormatWatchTarget {
  let child = dir;
  let parent = path.dirname(dir);
  while (parent !== child && !exists(parent)) {
    child = parent;
    parent = path.dirname(parent);
  }
  return { base: parent, pattern: path.basename(child) };
}
