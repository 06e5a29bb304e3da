import * as vscode from 'vscode';
import type { AgentEvent } from '../../agent/agentEvents';
import type { HookRunObserver, HookRunRecord, HookRunStatus } from '../../hooks/hookRunTypes';
import { describeSource } from '../../configFiles/hookSource';
import { ChangeThrottle } from './changeThrottle';
import { askAnswerText, occurrenceLabel, runDescription, runLabel, runReason, decisionText, formatDuration } from './hookRunLabels';
import { HookRunsModel } from './hookRunsModel';
import { runContextValue, runSwitchState } from './hookRunSwitch';
import type { AgentNode, HookRunsFilter, HookRunsNode, OccurrenceNode, RunNode, SessionNode, StepNode } from './hookRunNodes';

export type { HookRunsNode } from './hookRunNodes';

/** Context key that is true while the tree shows only blocked / asked / failed runs. */
export const FILTER_CONTEXT_KEY = 'hookwise.hookRuns.filtered';

/** Context key that is true while built-in hooks that decided nothing are shown. */
export const BUILTIN_CONTEXT_KEY = 'hookwise.hookRuns.showBuiltin';

/** Context key that is true while undecided occurrences are collapsed into their steps. */
export const GROUP_CONTEXT_KEY = 'hookwise.hookRuns.groupQuiet';

/** Command run when a run item is selected (opens its `hookwise-run:` document). */
export const OPEN_RUN_COMMAND = 'hookwise.hookRuns.openRun';

/** The scheme of the read-only run documents. */
export const RUN_SCHEME = 'hookwise-run';

export interface HookRunsTreeOptions {
  /** Executions kept per session (setting `hookwise.hookRuns.maxRunsPerSession`). */
  readonly maxRunsPerSession?: number;
  /** Refresh interval; the tree refreshes at most once per interval. */
  readonly throttleMs?: number;
}

/**
 * The "Hook Runs" tree: every hook execution, live, per session and agent. It is a
 * `HookRunObserver`: hand it to the HookRunner and items appear when a hook starts and update
 * when it ends. Refreshes are targeted (only the changed nodes) and throttled (≤ 10/s).
 */
export class HookRunsTreeProvider implements vscode.TreeDataProvider<HookRunsNode>, HookRunObserver, vscode.Disposable {
  static readonly viewId = 'hookwise.hookRuns';

  readonly model: HookRunsModel;
  private readonly changed = new vscode.EventEmitter<HookRunsNode | HookRunsNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly runChanged = new vscode.EventEmitter<HookRunRecord>();
  /** A run's record changed (finished, ask resolved): open run documents refresh. */
  readonly onDidChangeRun = this.runChanged.event;
  private readonly throttle: ChangeThrottle<HookRunsNode>;
  private readonly unsubscribe: () => void;
  /** The hook switches in force (`hookwise.hooks.disabled` as the loader applied it); see watchSwitches. */
  private switches: () => ReadonlySet<string> | undefined = () => undefined;

  constructor(options: HookRunsTreeOptions = {}) {
    this.model = new HookRunsModel(options.maxRunsPerSession !== undefined ? { maxRunsPerSession: options.maxRunsPerSession } : {});
    this.throttle = new ChangeThrottle<HookRunsNode>(
      (nodes) => this.changed.fire(nodes),
      (node) => this.model.getParent(node),
      options.throttleMs ?? 100,
    );
    this.unsubscribe = this.model.onChange((node) => this.throttle.add(node));
  }

  onHookStarted(record: HookRunRecord): void {
    this.model.onHookStarted(record);
  }

  onHookFinished(record: HookRunRecord): void {
    this.model.onHookFinished(record);
    this.runChanged.fire(record);
  }

  onAskResolved(record: HookRunRecord): void {
    this.model.onAskResolved(record);
    this.runChanged.fire(record);
  }

  /** Feed agent events here so subagents are labelled with their task description. */
  observeAgentEvent(event: AgentEvent): void {
    if (event.type === 'runStarted' && event.agent.parentAgentId !== null && event.description)
      this.model.describeAgent(event.agent.agentId, event.description);
  }

  get filter(): HookRunsFilter {
    return this.model.filter;
  }

  /** Shows all runs, or only blocked / asked / failed ones (also sets the context key for the title buttons). */
  setFilter(filter: HookRunsFilter): void {
    this.model.filter = filter;
    void vscode.commands.executeCommand('setContext', FILTER_CONTEXT_KEY, filter === 'attention');
  }

  get showBuiltin(): boolean {
    return this.model.showBuiltin;
  }

  /** Shows or hides built-in hooks that decided nothing (also sets the context key for the view menu). */
  setShowBuiltin(show: boolean): void {
    this.model.showBuiltin = show;
    void vscode.commands.executeCommand('setContext', BUILTIN_CONTEXT_KEY, show);
  }

  get groupQuiet(): boolean {
    return this.model.groupQuiet;
  }

  /** Collapses occurrences where no hook decided into their step, or shows them one by one (also sets the context key). */
  setGroupQuiet(group: boolean): void {
    this.model.groupQuiet = group;
    void vscode.commands.executeCommand('setContext', GROUP_CONTEXT_KEY, group);
  }

  clear(): void {
    this.model.clear();
  }

  /**
   * Run rows offer Disable or Enable by their hook's switch in `disabled()`; every applied
   * configuration (`onDidChange`) redraws them. The returned disposable stops the redraws.
   */
  watchSwitches(disabled: () => ReadonlySet<string> | undefined, onDidChange: vscode.Event<unknown>): vscode.Disposable {
    this.switches = disabled;
    this.changed.fire(undefined);
    return onDidChange(() => this.changed.fire(undefined));
  }

  /** Fires pending refreshes now (tests). */
  flush(): void {
    this.throttle.flush();
  }

  getChildren(node?: HookRunsNode): HookRunsNode[] {
    return this.model.getChildren(node);
  }

  getParent(node: HookRunsNode): HookRunsNode | undefined {
    return this.model.getParent(node);
  }

  getTreeItem(node: HookRunsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'session':
        return sessionItem(node);
      case 'agent':
        return agentItem(node);
      case 'step':
        return stepItem(node);
      case 'occurrence':
        return occurrenceItem(node);
      case 'run':
        return runItem(node, this.switches());
    }
  }

  dispose(): void {
    this.unsubscribe();
    this.throttle.dispose();
    this.changed.dispose();
    this.runChanged.dispose();
  }
}

/** The URI of a run's read-only document. */
export function runDocumentUri(record: HookRunRecord): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_SCHEME, path: `/${record.event} ${record.runId}.md`, query: record.runId });
}

function sessionItem(node: SessionNode): vscode.TreeItem {
  const item = new vscode.TreeItem(`Session ${new Date(node.startedAt).toLocaleTimeString()}`, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `session:${node.sessionId}`;
  item.description = node.sessionId.slice(0, 8);
  item.tooltip = `Session ${node.sessionId}\nStarted ${new Date(node.startedAt).toLocaleString()}`;
  item.iconPath = new vscode.ThemeIcon('history');
  item.contextValue = 'hookRunSession';
  return item;
}

function agentItem(node: AgentNode): vscode.TreeItem {
  const main = node.parentAgentId === null && node.agentType === 'main';
  const item = new vscode.TreeItem(main ? 'main agent' : node.agentType, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `agent:${node.session.sessionId}:${node.agentId}`;
  item.description = main ? undefined : (node.description ?? 'subagent');
  item.tooltip = `${main ? 'Main agent' : `Subagent ${node.agentType}${node.description ? `: ${node.description}` : ''}`}\nAgent id: ${node.agentId}${node.parentAgentId ? `\nParent: ${node.parentAgentId}` : ''}`;
  item.iconPath = new vscode.ThemeIcon(main ? 'hubot' : 'type-hierarchy-sub');
  item.contextValue = 'hookRunAgent';
  return item;
}

function stepItem(node: StepNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.step === 0 ? 'Before the first step' : `Step ${node.step}`, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `step:${node.agent.session.sessionId}:${node.agent.agentId}:${node.step}`;
  const events = node.occurrences.length;
  item.description = `${events} event${events === 1 ? '' : 's'} · no decision`;
  item.tooltip = `Events where no hook decided anything:\n${node.occurrences.map((o) => occurrenceLabel(o.first)).join('\n')}`;
  item.iconPath = new vscode.ThemeIcon('fold');
  item.contextValue = 'hookRunStep';
  return item;
}

function occurrenceItem(node: OccurrenceNode): vscode.TreeItem {
  const item = new vscode.TreeItem(occurrenceLabel(node.first), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `occurrence:${node.occurrenceId}`;
  const running = node.runs.filter((r) => r.record.status === 'running').length;
  const worst = worstRun(node.runs);
  const hooks = `${node.runs.length} hook${node.runs.length === 1 ? '' : 's'}`;
  item.description = running > 0 ? `${hooks} · running…` : worst ? `${hooks} · ${decisionText(worst.record)}` : hooks;
  item.iconPath = running > 0 ? new vscode.ThemeIcon('loading~spin') : worst ? statusIcon(worst.record) : new vscode.ThemeIcon('symbol-event');
  item.tooltip = `${node.first.event}${node.first.matchValue ? ` (${node.first.matchValue})` : ''}\nOccurrence ${node.occurrenceId}`;
  item.contextValue = 'hookRunOccurrence';
  return item;
}

function runItem(node: RunNode, disabled: ReadonlySet<string> | undefined): vscode.TreeItem {
  const record = node.record;
  const item = new vscode.TreeItem(runLabel(record), vscode.TreeItemCollapsibleState.None);
  item.id = `run:${record.runId}`;
  item.description = runDescription(record);
  item.iconPath = statusIcon(record);
  item.tooltip = runTooltip(record);
  item.contextValue = runContextValue(runSwitchState(record.source, disabled));
  item.command = { command: OPEN_RUN_COMMAND, title: 'Show Hook Run', arguments: [node] };
  item.accessibilityInformation = { label: `${record.event} hook ${runLabel(record)}: ${runDescription(record)}` };
  return item;
}

function runTooltip(record: HookRunRecord): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(record.event)}** · ${record.actionKind} hook\n\n`);
  md.appendCodeblock(record.hookLabel, record.actionKind === 'command' ? 'shellscript' : 'text');
  md.appendMarkdown(
    `\n**Source:** ${escape(describeSource(record.source))}${record.configGeneration !== undefined ? ` (config generation ${record.configGeneration})` : ''}\n\n`,
  );
  md.appendMarkdown(`**Result:** ${escape(decisionText(record))}${record.durationMs !== undefined ? ` in ${formatDuration(record.durationMs)}` : ''}\n\n`);
  const reason = runReason(record);
  if (reason) md.appendMarkdown(`**Reason:** ${escape(reason)}\n\n`);
  if (record.permission) md.appendMarkdown(`**Asked:** ${askAnswerText(record.permission)}\n\n`);
  return md;
}

const STATUS_RANK: Record<HookRunStatus, number> = { running: 0, ok: 1, cancelled: 2, asked: 3, 'timed-out': 4, failed: 5, blocked: 6 };

function worstRun(runs: readonly RunNode[]): RunNode | undefined {
  let worst: RunNode | undefined;
  for (const run of runs) if (!worst || STATUS_RANK[run.record.status] > STATUS_RANK[worst.record.status]) worst = run;
  return worst;
}

function statusIcon(record: HookRunRecord): vscode.ThemeIcon {
  const decision = record.outcome?.decision;
  switch (record.status) {
    case 'running':
      return new vscode.ThemeIcon('loading~spin');
    case 'ok':
      if (decision === 'deny' || decision === 'stop') return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('errorForeground'));
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'blocked':
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('errorForeground'));
    case 'asked':
      if (record.permission?.cancelled) return new vscode.ThemeIcon('debug-stop');
      return new vscode.ThemeIcon(record.permission?.decision === 'deny' ? 'circle-slash' : 'question', new vscode.ThemeColor('editorWarning.foreground'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    case 'timed-out':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground'));
    case 'cancelled':
      return new vscode.ThemeIcon('debug-stop');
  }
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}
