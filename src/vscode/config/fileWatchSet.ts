import * as vscode from 'vscode';

/** One watched place: files under `base` matching the glob `pattern`. */
export interface WatchTarget {
  readonly base: string;
  readonly pattern: string;
}

/**
 * A set of file system watchers that follows the targets of the last `update`: an unchanged set
 * keeps its watchers (no churn on every reload), a changed one replaces them all. Create, change
 * and delete all call `onChange` with the file.
 */
export class FileWatchSet implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private watched = '';

  constructor(private readonly onChange: (uri: vscode.Uri) => void) {}

  update(targets: readonly WatchTarget[]): void {
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
