import path from 'node:path';
import type { ConfigSourceInput } from '../../hooks/config/configSources';
import { byBaseThenPattern, creationTarget, type FormatWatchTarget } from './formatWatchGlobs';

/**
 * The folders of the last load's `.claude` inputs, each watched on its own by Node (folderWatchSet.ts):
 * the folder of a settings file for its name, an agents folder for `*.md`, a skills folder for its
 * entries (a skill folder made or removed) and each skill folder in it for `SKILL.md`. VS Code's
 * watcher did not report these reliably in code-server (skills it never watched at all). A folder
 * that is not there is watched through its nearest existing parent, for the name that would start
 * it, so its creation reloads and the reload watches the new folder. The managed policy file and
 * plugins keep their VS Code watchers. No vscode here, so the list is unit-tested.
 */
export function claudeWatchTargets(
  inputs: readonly ConfigSourceInput[],
  exists: (dir: string) => boolean,
  /** The subfolder names of a skills folder (the skills it holds now). */
  subfolders: (dir: string) => readonly string[],
): FormatWatchTarget[] {
  const targets = new Map<string, FormatWatchTarget>();
  const add = (base: string, pattern: string): void => {
    const target = exists(base) ? { base, pattern } : creationTarget(base, exists);
    targets.set(`${target.base}\0${target.pattern}`, target);
  };
  for (const input of inputs) {
    if ('plugin' in input && input.plugin !== undefined) continue;
    if (input.kind === 'claudeSettingsFile' && input.scope !== 'managed') add(path.dirname(input.file), path.basename(input.file));
    else if (input.kind === 'agentFile' || input.kind === 'skillFile') add(path.dirname(input.file), path.basename(input.file));
    else if (input.kind === 'agentsDirectory') add(input.dir, '*.md');
    else if (input.kind === 'skillsDirectory') {
      add(input.dir, '*');
      if (exists(input.dir)) for (const name of subfolders(input.dir)) add(path.join(input.dir, name), 'SKILL.md');
    }
  }
  return [...targets.values()].sort(byBaseThenPattern);
}
