import path from 'node:path';
import type * as vscode from 'vscode';
import type { ScriptPin } from '../../hooks/config/scriptPins';
import { FileWatchSet } from './fileWatchSet';

/**
 * Watches every workspace script a project hook or MCP server runs (docs/security.md): their
 * content is part of its approval key, so an edit must reload, re-pin, and hold the hook until it
 * is approved again. Between the edit and that reload (watcher latency plus one load) the old
 * approval still applies, so the callback runs at once, without a debounce.
 */
export class PinnedScriptWatcher implements vscode.Disposable {
  private readonly files: FileWatchSet;

  constructor(onChange: () => void) {
    this.files = new FileWatchSet(() => onChange());
  }

  /** Watches the scripts pinned by `hooks` (project hooks or MCP servers) and their symlink targets; unchanged sets keep their watchers. */
  update(hooks: readonly { readonly scripts?: readonly ScriptPin[] | undefined }[]): void {
    const files = new Set<string>();
    for (const hook of hooks) for (const pin of hook.scripts ?? []) files.add(pin.file).add(pin.target ?? pin.file);
    this.files.update([...files].sort().map((file) => ({ base: path.dirname(file), pattern: path.basename(file) })));
  }

  dispose(): void {
    this.files.dispose();
  }
}
