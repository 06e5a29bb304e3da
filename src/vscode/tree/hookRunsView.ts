import * as vscode from 'vscode';
import type { HookRunRecord } from '../../hooks/hookRunTypes';
import { definitionFile, locateHookDefinition } from './hookDefinitionLocation';
import type { HookRunsNode, RunNode } from './hookRunNodes';
import { renderHookRun } from './hookRunText';
import { FILTER_CONTEXT_KEY, HookRunsTreeProvider, OPEN_RUN_COMMAND, RUN_SCHEME, runDocumentUri } from './hookRunsTreeProvider';
import { thrownMessage } from '../../shared/describeThrown';
import { SAVE_TEST_CASE_COMMAND, saveTestCase, type SaveTestCaseOptions } from '../hookTests/saveTestCase';

/** Command ids of the Hook Runs view (declared in package.json). */
export const HookRunsCommands = {
  openRun: OPEN_RUN_COMMAND,
  rerun: 'hookwise.hookRuns.rerun',
  goToDefinition: 'hookwise.hookRuns.goToDefinition',
  copyInput: 'hookwise.hookRuns.copyInput',
  filterAttention: 'hookwise.hookRuns.filterAttention',
  showAll: 'hookwise.hookRuns.showAll',
  clear: 'hookwise.hookRuns.clear',
  showBuiltin: 'hookwise.hookRuns.showBuiltin',
  hideBuiltin: 'hookwise.hookRuns.hideBuiltin',
  groupQuiet: 'hookwise.hookRuns.groupQuiet',
  ungroupQuiet: 'hookwise.hookRuns.ungroupQuiet',
  saveAsTestCase: SAVE_TEST_CASE_COMMAND,
  search: 'hookwise.hookRuns.search',
} as const;

/** Memento key of the "Collapse Undecided Events into Steps" toggle. */
const GROUP_QUIET_KEY = 'hookwise.hookRuns.groupQuiet';

/** Memento key of the "Show Built-in Hooks" toggle. */
const SHOW_BUILTIN_KEY = 'hookwise.hookRuns.showBuiltin';

export interface HookRunsViewOptions {
  /** "Re-run with This Input": runs the same hook again with the recorded input (wired by the composition root). */
  readonly rerun: (record: HookRunRecord) => unknown;
  readonly log?: vscode.LogOutputChannel;
  /** Where the "Show Built-in Hooks" toggle is remembered (the extension's global state). */
  readonly state?: vscode.Memento;
  /** "Clear" also forgets the kept history (wired by the composition root). */
  readonly onClear?: () => unknown;
}

/** What `registerHookRunsView` creates; `disposable` owns all of it. */
export interface HookRunsView {
  readonly provider: HookRunsTreeProvider;
  readonly treeView: vscode.TreeView<HookRunsNode>;
  readonly disposable: vscode.Disposable;
}

/**
 * Creates the Hook Runs tree view with its provider, the `hookwise-run:` document provider,
 * and the view's commands (open run, re-run, go to definition, copy input, filter, clear,
 * show/hide built-in hooks: hidden by default unless they decide something; collapse undecided
 * events into their steps).
 * The bound on kept runs follows `hookwise.hookRuns.maxRunsPerSession`.
 */
export function registerHookRunsView(options: HookRunsViewOptions): HookRunsView {
  const config = () => vscode.workspace.getConfiguration('hookwise').get<number>('hookRuns.maxRunsPerSession', 5000);
  const provider = new HookRunsTreeProvider({ maxRunsPerSession: config() });
  const treeView = vscode.window.createTreeView(HookRunsTreeProvider.viewId, { treeDataProvider: provider, showCollapseAll: true });
  const documents = new HookRunDocumentProvider(provider);
  void vscode.commands.executeCommand('setContext', FILTER_CONTEXT_KEY, false);
  provider.setShowBuiltin(options.state?.get<boolean>(SHOW_BUILTIN_KEY) === true);
  const setShowBuiltin = (show: boolean): void => {
    provider.setShowBuiltin(show);
    void options.state?.update(SHOW_BUILTIN_KEY, show);
  };
  provider.setGroupQuiet(options.state?.get<boolean>(GROUP_QUIET_KEY) === true);
  const setGroupQuiet = (group: boolean): void => {
    provider.setGroupQuiet(group);
    void options.state?.update(GROUP_QUIET_KEY, group);
  };

  const setQuery = (query: string): void => {
    provider.model.query = query.trim();
    treeView.description = provider.model.query ? `“${provider.model.query}”` : undefined;
    void vscode.commands.executeCommand('setContext', FILTER_CONTEXT_KEY, provider.model.query !== '' || provider.model.filter === 'attention');
  };

  const run = (node: unknown): RunNode | undefined => {
    const candidate = (node ?? treeView.selection[0]) as HookRunsNode | undefined;
    return candidate?.kind === 'run' ? candidate : undefined;
  };

  const disposables: vscode.Disposable[] = [
    provider,
    treeView,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(RUN_SCHEME, documents),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hookwise.hookRuns.maxRunsPerSession')) provider.model.setMaxRunsPerSession(config());
    }),
    vscode.commands.registerCommand(HookRunsCommands.openRun, async (node?: unknown) => {
      const target = run(node);
      if (!target) return;
      const doc = await vscode.workspace.openTextDocument(runDocumentUri(target.record));
      await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
    }),
    vscode.commands.registerCommand(HookRunsCommands.rerun, async (node?: unknown) => {
      const target = run(node);
      if (!target) return;
      try {
        await options.rerun(target.record);
      } catch (error) {
        options.log?.error(`Re-run of ${target.record.hookLabel} failed: ${String(error)}`);
        void vscode.window.showErrorMessage(`Could not re-run the hook: ${thrownMessage(error)}`);
      }
    }),
    vscode.commands.registerCommand(HookRunsCommands.goToDefinition, async (node?: unknown) => {
      const target = run(node);
      if (target) await goToDefinition(target.record);
    }),
    vscode.commands.registerCommand(HookRunsCommands.copyInput, async (node?: unknown) => {
      const target = run(node);
      if (!target) return;
      await vscode.env.clipboard.writeText(JSON.stringify(target.record.input, null, 2));
      vscode.window.setStatusBarMessage('Hookwise: hook input copied', 2000);
    }),
    // On an event (or one of its runs): the whole occurrence becomes the case, its merged decision the expectation.
    vscode.commands.registerCommand(HookRunsCommands.saveAsTestCase, async (node?: unknown, options?: SaveTestCaseOptions) => {
      const candidate = (node ?? treeView.selection[0]) as HookRunsNode | undefined;
      const occurrence = candidate?.kind === 'occurrence' ? candidate : candidate?.kind === 'run' ? candidate.occurrence : undefined;
      if (!occurrence) return undefined;
      return saveTestCase(
        occurrence.runs.map((r) => r.record),
        options,
      );
    }),
    vscode.commands.registerCommand(HookRunsCommands.filterAttention, () => provider.setFilter('attention')),
    vscode.commands.registerCommand(HookRunsCommands.showAll, () => (setQuery(''), provider.setFilter('all'))),
    // Text, event:, decision:, hook:, agent:, session: (hookRunQuery.ts); also searches the runs restored from the history.
    vscode.commands.registerCommand(HookRunsCommands.search, async (text?: unknown) => {
      const query =
        typeof text === 'string'
          ? text
          : await vscode.window.showInputBox({
              title: 'Search Hook Runs',
              prompt: 'Words to find, and event:, decision:, hook:, agent:, session: (e.g. event:PreToolUse decision:deny rm)',
              value: provider.model.query,
            });
      if (query !== undefined) setQuery(query);
    }),
    vscode.commands.registerCommand(HookRunsCommands.clear, () => (provider.clear(), options.onClear?.())),
    vscode.commands.registerCommand(HookRunsCommands.showBuiltin, () => setShowBuiltin(true)),
    vscode.commands.registerCommand(HookRunsCommands.hideBuiltin, () => setShowBuiltin(false)),
    vscode.commands.registerCommand(HookRunsCommands.groupQuiet, () => setGroupQuiet(true)),
    vscode.commands.registerCommand(HookRunsCommands.ungroupQuiet, () => setGroupQuiet(false)),
  ];
  return { provider, treeView, disposable: vscode.Disposable.from(...disposables) };
}

/** Opens the file a hook was configured in, with the handler selected. */
export async function goToDefinition(record: HookRunRecord): Promise<void> {
  const file = definitionFile(record.source);
  if (!file) {
    void vscode.window.showInformationMessage(
      `"${record.hookLabel}" is registered in code (${record.source.kind === 'code' ? record.source.label : 'code'}); it has no configuration file.`,
    );
    return;
  }
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  } catch {
    void vscode.window.showWarningMessage(`The hook's configuration file ${file} cannot be opened (moved or deleted?).`);
    return;
  }
  const text = doc.getText();
  // Agent files (.md with YAML) are not JSON: fall back to the command text itself.
  const span = locateHookDefinition(text, record.source) ?? locateText(text, record.hookLabel);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  if (span) {
    const range = new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

function locateText(text: string, needle: string): { offset: number; length: number } | undefined {
  const at = needle ? text.indexOf(needle) : -1;
  return at >= 0 ? { offset: at, length: needle.length } : undefined;
}

/** Serves `hookwise-run:` documents from the tree's model; an open document follows its run live. */
class HookRunDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly provider: HookRunsTreeProvider) {
    this.subscription = provider.onDidChangeRun((record) => this.changed.fire(runDocumentUri(record)));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const record = this.provider.model.findRun(uri.query)?.record;
    return record ? renderHookRun(record) : 'This hook run is no longer kept (cleared, or dropped by hookwise.hookRuns.maxRunsPerSession).\n';
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
