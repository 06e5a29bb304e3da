import * as vscode from 'vscode';
import type { PluginWatchTarget } from '../../plugins/pluginWatchTargets';

/**
 * Watches the plugin files of the last load (pluginWatchTargets.ts): an edit to an enabled
 * plugin's hooks, agents or skills, to Claude Code's install record or to a
 * `hookwise.plugins.directories` root reloads hooks without a window reload, like a
 * `.claude/settings.json` edit. An unchanged set of targets keeps its watchers.
 */
export class PluginFolderWatcher implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private watched = '';

  /** `onChange` gets the changed file (the config service debounces). */
  constructor(private readonly onChange: (uri: vscode.Uri) => void) {}

  update(targets: readonly PluginWatchTarget[]): void {
    const key = targets.map((t) => `${t.base}\0${t.pattern}`).join('\n');
    if (key === this.watched) return;
    this.watched = key;
    this.disposeWatchers();
    const fire = (uri: vscode.Uri): void => this.onChange(uri);
    for (const t of targets) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(t.base), t.pattern));
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
