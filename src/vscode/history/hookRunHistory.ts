import * as vscode from 'vscode';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HookRunObserver, HookRunRecord } from '../../hooks/hookRunTypes';
import { thrownMessage } from '../../shared/describeThrown';
import { HookRunStore } from './hookRunStore';

/** Command id of "Export Hook Runs (JSONL)". */
export const EXPORT_HOOK_RUNS_COMMAND = 'hookwise.hookRuns.export';

/** Where restored runs go (the Hook Runs tree model). */
export interface HookRunSink {
  onHookFinished(record: HookRunRecord): void;
}

/**
 * The Hook Runs history of one workspace: every finished run is kept in a {@link HookRunStore}
 * under the extension's workspace storage (10,000 runs or 7 days), put back into the tree
 * when the window opens again, and exportable as JSONL. Without a workspace (no storageUri)
 * nothing is kept. Owns its store; `dispose` writes what is queued.
 */
export class HookRunHistory implements HookRunObserver, vscode.Disposable {
  readonly store: HookRunStore | undefined;

  constructor(storageUri: vscode.Uri | undefined, log?: vscode.LogOutputChannel) {
    this.store = storageUri ? new HookRunStore({ dir: path.join(storageUri.fsPath, 'hook-runs'), onError: (message) => log?.warn(message) }) : undefined;
  }

  onHookFinished(record: HookRunRecord): void {
    this.store?.add(record);
  }

  onAskResolved(record: HookRunRecord): void {
    this.store?.add(record);
  }

  /** Puts the kept runs into `sink` (oldest first); returns how many. */
  async restore(sink: HookRunSink): Promise<number> {
    const records = (await this.store?.load()) ?? [];
    for (const record of records) sink.onHookFinished(record);
    return records.length;
  }

  /** Forgets every kept run ("Clear" in Hook Runs: cleared runs must not come back after a reload). */
  async clear(): Promise<void> {
    await this.store?.clear();
  }

  /** Writes every kept run to `file`, one JSON object per line; returns how many. */
  async exportTo(file: string): Promise<number> {
    await this.store?.flush();
    const records = (await this.store?.load()) ?? [];
    await writeFile(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    return records.length;
  }

  /** The export command: asks where, writes, says how many. */
  registerExportCommand(): vscode.Disposable {
    return vscode.commands.registerCommand(EXPORT_HOOK_RUNS_COMMAND, async (target?: vscode.Uri) => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const uri =
        target ??
        (await vscode.window.showSaveDialog({
          title: 'Export Hook Runs (JSONL)',
          filters: { 'JSON Lines': ['jsonl'] },
          ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'hook-runs.jsonl') } : {}),
        }));
      if (!uri) return undefined;
      try {
        const count = await this.exportTo(uri.fsPath);
        if (!target) void vscode.window.showInformationMessage(`Exported ${count} hook runs to ${uri.fsPath}.`);
        return count;
      } catch (error) {
        void vscode.window.showErrorMessage(`Could not export hook runs to ${uri.fsPath}: ${thrownMessage(error)}`);
        return undefined;
      }
    });
  }

  dispose(): void {
    this.store?.dispose();
  }
}
