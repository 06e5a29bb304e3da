import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Disposable } from 'vscode';
import type { FormatWatchTarget } from './formatWatchGlobs';

/**
 * Node's own watcher on each folder of the last `update`, for the direct entries whose name fits
 * the target's pattern (`*`, `*.json` or one name). VS Code's file watcher serves a folder inside the
 * workspace from its recursive workspace watcher, which can lose a folder deleted and created again
 * with its subfolders at once (a checkout): edits in it then go unseen for the rest of the session.
 * Every `update` (once per reload) renews the watchers, so a folder created again is watched as the
 * new folder it is (its inode may even be the old one's). The load reads the files after the update,
 * so nothing written while the watchers are renewed is missed. A folder that is not there is skipped.
 */
export class FolderWatchSet implements Disposable {
  private watchers: FSWatcher[] = [];

  constructor(private readonly onChange: (file: string) => void) {}

  update(targets: readonly FormatWatchTarget[]): void {
    this.dispose();
    const byFolder = new Map<string, string[]>();
    for (const t of targets) byFolder.set(t.base, [...(byFolder.get(t.base) ?? []), t.pattern]);
    for (const [base, patterns] of byFolder) {
      if (!isDirectory(base)) continue;
      try {
        const watcher = watch(base, { persistent: false }, (_type, name) => {
          // No name (some platforms): something in the folder changed, which is enough for a reload.
          if (name === null) this.onChange(base);
          else if (patterns.some((p) => fits(p, name.toString()))) this.onChange(path.join(base, name.toString()));
        });
        // The folder went away: this watcher is done; the reload its removal causes renews the set.
        watcher.on('error', () => watcher.close());
        this.watchers.push(watcher);
      } catch {
        // Gone between the check and the watch: the reload its removal causes updates again.
      }
    }
  }

  dispose(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `name` fits a target pattern: `*`, `*.ext` (any case, as the loader lists them) or the name itself. */
function fits(pattern: string, name: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return name.toLowerCase().endsWith(pattern.slice(1).toLowerCase());
  return name === pattern;
}
