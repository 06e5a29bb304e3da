import path from 'node:path';
import { registeredHookFormats } from './formatRegistry';
import type { FormatFileWhere, HookFormatId } from './hookFormat';

/** A hooks file of another agent, recognised by where it is. */
export interface LocatedFormatFile extends FormatFileWhere {
  readonly format: HookFormatId;
}

/**
 * The format of the hooks file at `file` (absolute), from the places the agents read (each
 * adapter's `locations`): under `projectDir` a project file, under `homeDir` a user file.
 * Undefined when no agent reads a hooks file there. No I/O.
 */
export function locateFormatFile(file: string, projectDir: string, homeDir: string): LocatedFormatFile | undefined {
  const absolute = path.resolve(file);
  for (const adapter of registeredHookFormats())
    for (const location of adapter.locations) {
      const base = location.scope === 'project' ? projectDir : homeDir;
      const rel = path.relative(base, absolute).split(path.sep).join('/');
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      const name = path.basename(absolute);
      const hit =
        location.kind === 'file'
          ? rel === location.path
          : path.posix.dirname(rel) === location.path && (adapter.directoryEntry?.(name) ?? name.toLowerCase().endsWith('.json'));
      if (hit) return { format: adapter.id, file: absolute, displayFile: location.scope === 'project' ? rel : `~/${rel}`, scope: location.scope };
    }
  return undefined;
}
