import path from 'node:path';
import * as vscode from 'vscode';
import type { LoadedHook } from '../../hooks/config/loadedHook';

/**
 * Watches every workspace script a project hook names (docs/security.md): their content is
 * part of the hook's approval key, so an edit must reload, re-pin, and hold the hook until it
 * is approved again. Between the edit and that reload (watcher latency plus one load) the old
 * approval still applies, so the callback runs at once, without a debounce.
 */
export class PinnedScriptWatcher implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private watched = '';

  constructor(private readonly onChange: () => void) {}

  /** Watches the scripts pinned by `hooks` (and their symlink targets); unchanged sets keep their watchers. */
  update(hooks: readonly LoadedHook[]): void {
    const files = new Set<string>();
    for (const hook of hooks) for (const pin of hook.scripts ?? []) files.add(pin.file).add(pin.target ?? pin.file);
    const key = [...files].sort().join('\n');
    if (key === this.watched) return;
    this.watched = key;
    this.disposeWatchers();
    const fire = (): void => this.onChange();
    for (const file of files) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      this.watchers.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
    }
  }

  private disposeWatchers(): void {
    for (const d of this.watchers.splice(0)) d.dispose();
  }

  dispose(): void {
    this.disposeWatchers();
    this.watched = '';
  }
}
