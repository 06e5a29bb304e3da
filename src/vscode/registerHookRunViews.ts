import * as vscode from 'vscode';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import type { ModelClient } from '../model/modelClient';
import type { HookConfigChange } from './config/hookConfigService';
import { HookRunHistory } from './history/hookRunHistory';
import { registerHookRunsView, type HookRunsView } from './tree/hookRunsView';
import { HookRunsTreeProvider } from './tree/hookRunsTreeProvider';
import { HookLens } from './workbench/hookLens';
import { completeTourSteps } from './tourProgress';

/** Where hook runs are shown: the Hook Runs tree, the history kept across reloads, the lenses on settings files. */
export interface HookRunViews {
  readonly runs: HookRunsView;
  readonly history: HookRunHistory;
  readonly lens: HookLens;
}

/** What the views read from parts created after them (called only later, never during registration). */
export interface HookRunViewsDeps {
  readonly log: vscode.LogOutputChannel;
  /** Runs one hook again (the tree's Rerun). */
  readonly rerun: (record: HookRunRecord) => unknown;
  readonly config: () => HookConfigChange | undefined;
  readonly model: () => ModelClient;
  readonly projectDir: () => string;
}

/**
 * Registers the Hook Runs tree, its history and the hook lenses (each owned by
 * `context.subscriptions`), and brings back the runs of earlier windows into the tree and the
 * lenses' stats.
 */
export function registerHookRunViews(context: vscode.ExtensionContext, deps: HookRunViewsDeps): HookRunViews {
  const { log } = deps;
  const runs = registerHookRunsView({
    log,
    state: context.globalState,
    rerun: deps.rerun,
    onClear: () => (lens.clear(), history.clear()),
  });
  context.subscriptions.push(runs.disposable);
  // The tour's "watch hook runs" step, also after Restart Tour (VS Code counts a view's first showing only).
  context.subscriptions.push(
    runs.treeView.onDidChangeVisibility((e) => e.visible && void completeTourSteps(context.extension, `onView:${HookRunsTreeProvider.viewId}`, log)),
  );
  // Runs of earlier windows come back into the tree; every finished run is kept (10,000 / 7 days).
  // hookwise.hookRuns.keepHistory: false keeps hook inputs off the disk (no store, nothing restored).
  const keepHistory = vscode.workspace.getConfiguration('hookwise').get<boolean>('hookRuns.keepHistory', true);
  const history = new HookRunHistory(keepHistory ? context.storageUri : undefined, log);
  context.subscriptions.push(history, history.registerExportCommand());
  // Per-hook stats on the settings files' lenses count live runs and the restored history alike.
  const lens = new HookLens({ current: deps.config, model: deps.model, log, projectDir: deps.projectDir });
  context.subscriptions.push(lens);
  const restoreSink = { onHookFinished: (record: HookRunRecord) => (runs.provider.onHookFinished(record), lens.onHookFinished(record)) };
  void history.restore(restoreSink).then(
    (count) => count > 0 && log.info(`restored ${count} hook runs from the history`),
    (error: unknown) => log.warn(`hook run history not read: ${String(error)}`),
  );
  return { runs, history, lens };
}
