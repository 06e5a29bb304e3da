import { registeredHookFormats } from '../../hooks/formats/formatRegistry';

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
